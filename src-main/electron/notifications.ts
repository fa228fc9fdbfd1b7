import type { SessionEvent } from '../../src-shared/session/events';

/** Moments worth a native notification: the turn is over, or the agent waits for the person. */
export type NotificationKind = 'turnEnded' | 'permission' | 'elicitation' | 'authRequired';

/**
 * Notify only when the person is elsewhere (the window is not focused) and has not turned
 * notifications off (`settings.notifications`).
 */
export function shouldNotify(input: { focused: boolean; enabled: boolean; kind: NotificationKind | null }): boolean {
  return input.kind !== null && input.enabled && !input.focused;
}

/**
 * Stop reasons that do not deserve a notification: the person cancelled the turn, the app
 * closed it on restart (`interrupted`), or it stopped for sign-in (`auth.required` covers that).
 */
const QUIET_STOP_REASONS = new Set(['cancelled', 'interrupted', 'auth_required']);

/** Most urgent first: a batch of events yields at most one notification per session. */
const PRIORITY: NotificationKind[] = ['permission', 'elicitation', 'authRequired', 'turnEnded'];

function kindOf(event: SessionEvent): NotificationKind | null {
  switch (event.kind) {
    case 'permission.requested':
      return 'permission';
    case 'elicitation.requested':
      return 'elicitation';
    case 'auth.required':
      return 'authRequired';
    case 'turn.ended':
      return QUIET_STOP_REASONS.has(event.stopReason) ? null : 'turnEnded';
    default:
      return null;
  }
}

/** The event in a batch that should notify, if any (the most urgent one). */
export function notifiableEvent(events: readonly SessionEvent[]): { kind: NotificationKind; event: SessionEvent } | null {
  let found: { kind: NotificationKind; event: SessionEvent } | null = null;
  for (const event of events) {
    const kind = kindOf(event);
    if (kind && (!found || PRIORITY.indexOf(kind) < PRIORITY.indexOf(found.kind))) found = { kind, event };
  }
  return found;
}

function shorten(text: string, max = 160): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

const nonEmpty = (text: string | null): string | null => (text && text.trim() !== '' ? text : null);

/** The notification's text. `session` names the tab: its title, else the agent. */
export function notificationContent(
  kind: NotificationKind,
  event: SessionEvent,
  session: { title: string | null; agentName: string },
): { title: string; body: string } {
  const agent = session.agentName || 'The agent';
  const title = shorten(session.title || session.agentName || 'ACP Desktop', 80);
  switch (kind) {
    case 'permission': {
      const tool = event.kind === 'permission.requested' ? nonEmpty(event.tool.title ?? event.title ?? null) : null;
      return { title, body: shorten(tool ? `${agent} asks for permission: ${tool}` : `${agent} asks for permission.`) };
    }
    case 'elicitation': {
      const message = event.kind === 'elicitation.requested' ? nonEmpty(event.request.message) : null;
      return { title, body: shorten(message ? `${agent} asks: ${message}` : `${agent} has a question for you.`) };
    }
    case 'authRequired':
      return { title, body: shorten(`${agent} needs you to sign in.`) };
    case 'turnEnded': {
      const { stopReason, error } = event.kind === 'turn.ended' ? event : { stopReason: undefined, error: undefined };
      if (stopReason === 'error') return { title, body: shorten(error ? `${agent} stopped with an error: ${error}` : `${agent} stopped with an error.`) };
      if (stopReason === 'max_tokens' || stopReason === 'max_turn_requests') return { title, body: `${agent} stopped: it reached its limit.` };
      if (stopReason === 'refusal') return { title, body: `${agent} declined to continue.` };
      return { title, body: `${agent} finished.` };
    }
  }
}
