import type { SessionEvent } from '../../../src-shared/session/events';
import { appliedEvents, useStore } from '../../store/store';
import { showSession } from './actions';
import { logged, logRenderer } from '../../log';

/**
 * A permission request or a question from the agent while the person is looking elsewhere:
 * a desktop notification (Web Notification API). Only in the browser host; in Electron the
 * main process notifies (it also knows when the window is minimised). Follows the events the
 * store applied live (never a log read at load: those were asked long ago).
 */
export function startAttention(): () => void {
  return appliedEvents.subscribe((sessionId, events, how) => {
    if (how === 'live') noticeAttention(sessionId, events);
  });
}

function noticeAttention(sessionId: string, events: readonly SessionEvent[]): void {
  const asks = events.filter((e) => e.kind === 'permission.requested' || e.kind === 'elicitation.requested');
  if (!asks.length) return;
  const { app, notifications } = useStore.getState();
  if (app?.host !== 'browser' || !notifications) return;
  if (!document.hidden && document.hasFocus()) return;
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  const session = useStore.getState().sessions[sessionId];
  const who = session?.title || session?.agentName || 'An agent';
  for (const event of asks) {
    const body =
      event.kind === 'permission.requested'
        ? `Permission: ${event.tool.title || event.title || 'a tool call'}`
        : `Question: ${event.request.message ?? 'the agent needs an answer'}`;
    try {
      const notification = new Notification(`${who} needs you`, { body, tag: `${sessionId}:${event.kind}` });
      notification.onclick = () => {
        window.focus();
        showSession(sessionId);
        notification.close();
      };
    } catch (error) {
      // Expected where notifications are unavailable (a page without a secure context): the tab badge still shows it.
      logRenderer('debug', 'Showing a notification', error);
    }
  }
}

/** Asks for notification permission once, from a user gesture (sending a message). */
export function askNotificationPermission(): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'default') return;
  if (useStore.getState().app?.host !== 'browser') return;
  void Notification.requestPermission().catch(logged('Asking for notification permission', 'debug'));
}
