import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, leavePage, openApp, ROOT, type RunningHost, send, shot, startHost, startSession, test } from './fixtures/host';

// Issue 21: one block larger than what can be parsed in a frame's budget (a log dump of 3,000
// lines without a blank line) was never rendered, and the page re-rendered its placeholder on
// every animation frame while the session was idle.

const FLOOD = { id: 'flood', name: 'Flood Agent', command: process.execPath, args: [join(ROOT, 'e2e/fixtures/flood-agent.mjs')] };
const transcript = (page: Page) => page.getByRole('log', { name: 'Transcript' });
const lastAgent = (page: Page) => transcript(page).getByRole('article', { name: 'Agent' }).last();

let host: RunningHost | undefined;
test.beforeEach(async ({ page }) => {
  // Counts animation-frame callbacks: an idle page runs none.
  await page.addInitScript(() => {
    const counter = window as unknown as { animationFrames: number };
    counter.animationFrames = 0;
    const request = window.requestAnimationFrame.bind(window);
    window.requestAnimationFrame = (callback) =>
      request((time) => {
        counter.animationFrames++;
        callback(time);
      });
  });
});
test.afterEach(async ({ page }) => {
  await leavePage(page);
  await host?.stop();
  host = undefined;
});

async function floodSession(page: Page): Promise<void> {
  host = await startHost({ settings: { agents: [FLOOD] } });
  await openApp(page, host);
  await startSession(page, FLOOD.name, host.workspace);
}

/**
 * The numbers of the log lines (`line 000042 …`) in the message's text between the top left
 * and the bottom right of the transcript's viewport, in page order (what a person sees there).
 */
function visibleLines(page: Page): Promise<number[]> {
  return lastAgent(page).evaluate((message) => {
    const view = message.closest('.transcript')!.getBoundingClientRect();
    const box = message.getBoundingClientRect();
    const left = Math.max(view.left, box.left) + 2;
    const right = Math.min(view.right, box.right) - 2;
    const start = document.caretRangeFromPoint(left, Math.max(view.top, box.top) + 2);
    const end = document.caretRangeFromPoint(right, Math.min(view.bottom, box.bottom) - 2);
    if (!start || !end || !message.contains(start.startContainer) || !message.contains(end.startContainer)) return [];
    const range = document.createRange();
    range.setStart(start.startContainer, start.startOffset);
    range.setEnd(end.startContainer, end.startOffset);
    return [...range.toString().matchAll(/line (\d{6})/g)].map((match) => Number(match[1]));
  });
}

/** Scrolls the transcript from the message's top to the end, checking that every screen shows log lines, in order, without a gap. */
async function readEveryLine(page: Page, count: number): Promise<void> {
  await lastAgent(page).evaluate((message) => message.scrollIntoView({ block: 'start' }));
  let next = 0;
  for (let screen = 0; next < count; screen++) {
    expect(screen, `screens read (${next} of ${count} lines so far)`).toBeLessThan(1000);
    // A part comes into view rendered a moment later (it is rendered near the viewport).
    await expect.poll(() => visibleLines(page), { message: `lines on screen after line ${next - 1}` }).not.toEqual([]);
    const shown = await visibleLines(page);
    expect(shown[0], `first line on this screen (after line ${next - 1})`).toBeLessThanOrEqual(next);
    shown.forEach((line, i) => expect(line, `line after ${shown[i - 1]}`).toBe(i === 0 ? shown[0] : shown[i - 1] + 1));
    next = Math.max(next, shown[shown.length - 1] + 1);
    const atEnd = await transcript(page).evaluate((log) => {
      const before = log.scrollTop;
      log.scrollTop += log.clientHeight * 0.5;
      return log.scrollTop === before;
    });
    if (atEnd) break;
  }
  expect(next).toBe(count);
}

/** No animation-frame work for a second. */
async function expectIdle(page: Page): Promise<void> {
  const frames = () => page.evaluate(() => (window as unknown as { animationFrames: number }).animationFrames);
  // Rendering that was sliced across frames settles first.
  await expect(lastAgent(page).locator('.markdown-pending, .markdown-deferred')).toHaveCount(0);
  const before = await frames();
  await page.waitForTimeout(1000);
  expect(await frames(), 'animation frames run in a second of idle').toBe(before);
}

test('3,000 streamed lines of 40 characters without a blank line: every line is shown, in order, and the page ends idle', async ({ page }) => {
  test.setTimeout(240_000);
  await floodSession(page);
  await send(page, 'lines 3000');
  await expect(page.getByLabel('Session status')).toHaveText('Idle', { timeout: 120_000 });
  await expect(lastAgent(page)).toContainText('line 002999', { timeout: 60_000 });
  await readEveryLine(page, 3000);
  await expectIdle(page);
  await lastAgent(page).evaluate((message) => message.scrollIntoView({ block: 'start' }));
  await expect.poll(() => visibleLines(page)).toContain(0);
  await shot(page, 'streaming-3000-lines-top');
});

test('the same log of 5 MB in one chunk: its beginning, middle and end are shown, and the page ends idle', async ({ page }) => {
  test.setTimeout(300_000);
  await floodSession(page);
  const count = 125_000;
  await send(page, `lines ${count} once`);
  await expect(page.getByLabel('Session status')).toHaveText('Idle', { timeout: 120_000 });
  await expect(lastAgent(page).locator('.markdown-pending, .markdown-deferred')).toHaveCount(0, { timeout: 120_000 });
  for (const at of [0, 0.5, 1]) {
    await lastAgent(page).evaluate((message, at) => {
      const log = message.closest('.transcript')!;
      const top = message.getBoundingClientRect().top - log.getBoundingClientRect().top + log.scrollTop;
      log.scrollTop = top + (message.scrollHeight - log.clientHeight) * at;
    }, at);
    await expect.poll(() => visibleLines(page), { message: `lines on screen ${at * 100}% down`, timeout: 60_000 }).not.toEqual([]);
    const shown = await visibleLines(page);
    shown.forEach((line, i) => expect(line).toBe(shown[0] + i));
    if (at === 0) expect(shown[0]).toBe(0);
    if (at === 1) expect(shown[shown.length - 1]).toBe(count - 1);
    if (at === 0.5) expect(Math.abs(shown[0] - count / 2)).toBeLessThan(count / 10);
  }
  await expectIdle(page);
  await shot(page, 'streaming-5mb-lines-end');
});
