import { describe, expect, it } from 'vitest';
import { isTrustedSender } from './ipcSender';

const appUrl = 'file:///app/out/renderer/index.html';

function fakeWindow() {
  const mainFrame = { url: appUrl };
  const contents = { mainFrame };
  return { contents, mainFrame };
}

describe('isTrustedSender (IPC from unexpected frames is ignored)', () => {
  it("accepts the app window's main frame showing the app", () => {
    const { contents, mainFrame } = fakeWindow();
    expect(isTrustedSender({ sender: contents, senderFrame: mainFrame }, contents, appUrl)).toBe(true);
    mainFrame.url = `${appUrl}#/tab/2`;
    expect(isTrustedSender({ sender: contents, senderFrame: mainFrame }, contents, appUrl)).toBe(true);
  });

  it('refuses an iframe of the app window', () => {
    const { contents } = fakeWindow();
    const iframe = { url: appUrl };
    expect(isTrustedSender({ sender: contents, senderFrame: iframe }, contents, appUrl)).toBe(false);
  });

  it('refuses other web contents (another window, a devtools page)', () => {
    const { contents } = fakeWindow();
    const other = fakeWindow();
    expect(isTrustedSender({ sender: other.contents, senderFrame: other.mainFrame }, contents, appUrl)).toBe(false);
  });

  it('refuses a main frame that shows another page', () => {
    const { contents, mainFrame } = fakeWindow();
    mainFrame.url = 'https://evil.example/';
    expect(isTrustedSender({ sender: contents, senderFrame: mainFrame }, contents, appUrl)).toBe(false);
  });

  it('refuses when the frame is gone or there is no window', () => {
    const { contents, mainFrame } = fakeWindow();
    expect(isTrustedSender({ sender: contents, senderFrame: null }, contents, appUrl)).toBe(false);
    expect(isTrustedSender({ sender: contents, senderFrame: mainFrame }, null, appUrl)).toBe(false);
  });
});
