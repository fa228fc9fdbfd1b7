import { isAppUrl } from './navigation';

/** The parts of an IPC event the sender check reads (Electron's `IpcMainInvokeEvent`). */
export interface IpcSenderInfo {
  sender: unknown;
  senderFrame: { url: string } | null;
}

/** The parts of the app window the check compares against (its `webContents`). */
export interface TrustedContents {
  mainFrame: unknown;
}

/**
 * Whether an IPC request comes from the app's own page: the main window's web contents, its
 * main frame (not an iframe), still showing the app (not a page it was navigated to).
 * Anything else is ignored; navigation is refused anyway, this is the second fence.
 */
export function isTrustedSender(event: IpcSenderInfo, contents: TrustedContents | null, appUrl: string): boolean {
  if (!contents || !event.senderFrame) return false;
  if (event.sender !== contents) return false;
  if (event.senderFrame !== contents.mainFrame) return false;
  return isAppUrl(event.senderFrame.url, appUrl);
}
