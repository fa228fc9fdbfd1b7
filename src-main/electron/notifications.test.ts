import { describe, expect, it } from 'vitest';
import type { SessionEvent, SessionEventBody } from '../../src-shared/session/events';
import { notifiableEvent, notificationContent, shouldNotify, type NotificationKind } from './notifications';
import { decodeV1Update } from '../acp/decode/v1Update';
import { decodeElicitationRequest } from '../acp/decode/controls';

let seq = 0;
const event = (body: SessionEventBody): SessionEvent => ({ sessionId: 's1', seq: ++seq, ts: 0, ...body }) as SessionEvent;

const turnEnded = (stopReason: string, error?: string) => event({ kind: 'turn.ended', turnId: 't', stopReason, ...(error ? { error } : {}) });
const permission = event({ kind: 'permission.requested', requestId: 'r', toolCallId: 'c', tool: { title: 'Edit src/index.ts' }, options: [] });
const elicitation = event({ kind: 'elicitation.requested', requestId: 'e', request: decodeElicitationRequest({ message: 'Which branch should I use?' }) });
const auth = event({ kind: 'auth.required', methods: [] });
const chunk = event(decodeV1Update({ sessionUpdate: 'agent_message_chunk' }));

describe('shouldNotify', () => {
  const kinds: NotificationKind[] = ['turnEnded', 'permission', 'elicitation', 'authRequired'];

  it('notifies only when the window is not focused and notifications are on', () => {
    for (const kind of kinds) {
      expect(shouldNotify({ focused: false, enabled: true, kind })).toBe(true);
      expect(shouldNotify({ focused: true, enabled: true, kind })).toBe(false);
      expect(shouldNotify({ focused: false, enabled: false, kind })).toBe(false);
      expect(shouldNotify({ focused: true, enabled: false, kind })).toBe(false);
    }
  });

  it('never notifies without a reason', () => {
    expect(shouldNotify({ focused: false, enabled: true, kind: null })).toBe(false);
  });
});

describe('notifiableEvent', () => {
  it('picks turn ends and requests that need the person', () => {
    expect(notifiableEvent([chunk, turnEnded('end_turn')])?.kind).toBe('turnEnded');
    expect(notifiableEvent([permission])?.kind).toBe('permission');
    expect(notifiableEvent([elicitation])?.kind).toBe('elicitation');
    expect(notifiableEvent([auth])?.kind).toBe('authRequired');
    expect(notifiableEvent([turnEnded('error', 'boom')])?.kind).toBe('turnEnded');
  });

  it('stays quiet for ordinary events and for turns the person or the app stopped', () => {
    expect(notifiableEvent([])).toBeNull();
    expect(notifiableEvent([chunk])).toBeNull();
    expect(notifiableEvent([turnEnded('cancelled')])).toBeNull();
    // Recorded when a session is restored after the app stopped mid-turn.
    expect(notifiableEvent([turnEnded('interrupted')])).toBeNull();
    expect(notifiableEvent([event({ kind: 'permission.resolved', requestId: 'r', optionId: 'allow' })])).toBeNull();
    expect(notifiableEvent([event({ kind: '_future.kind', value: 1 } as SessionEventBody)])).toBeNull();
  });

  it('makes one notification per batch: the most urgent', () => {
    expect(notifiableEvent([turnEnded('end_turn'), permission, elicitation])?.kind).toBe('permission');
    expect(notifiableEvent([turnEnded('end_turn'), elicitation])?.event).toBe(elicitation);
    // A turn stopped for sign-in: the sign-in request speaks, not the stop.
    expect(notifiableEvent([auth, turnEnded('auth_required')])?.kind).toBe('authRequired');
  });
});

describe('notificationContent', () => {
  const session = { title: 'Fix the build', agentName: 'Claude' };

  it('names the tab and says what is wanted', () => {
    expect(notificationContent('permission', permission, session)).toEqual({ title: 'Fix the build', body: 'Claude asks for permission: Edit src/index.ts' });
    expect(notificationContent('elicitation', elicitation, session)).toEqual({ title: 'Fix the build', body: 'Claude asks: Which branch should I use?' });
    expect(notificationContent('authRequired', auth, session)).toEqual({ title: 'Fix the build', body: 'Claude needs you to sign in.' });
    expect(notificationContent('turnEnded', turnEnded('end_turn'), session)).toEqual({ title: 'Fix the build', body: 'Claude finished.' });
    expect(notificationContent('turnEnded', turnEnded('error', 'exit 1'), session).body).toBe('Claude stopped with an error: exit 1');
    expect(notificationContent('turnEnded', turnEnded('max_tokens'), session).body).toBe('Claude stopped: it reached its limit.');
    expect(notificationContent('turnEnded', turnEnded('refusal'), session).body).toBe('Claude declined to continue.');
  });

  it('falls back to the agent name, and copes with missing fields', () => {
    const untitled = { title: null, agentName: 'Gemini' };
    expect(notificationContent('turnEnded', turnEnded('end_turn'), untitled).title).toBe('Gemini');
    const bare = event({ kind: 'permission.requested', requestId: 'r', toolCallId: 'permission-r', tool: {}, options: [] });
    expect(notificationContent('permission', bare, untitled).body).toBe('Gemini asks for permission.');
    expect(
      notificationContent('elicitation', event({ kind: 'elicitation.requested', requestId: 'e', request: decodeElicitationRequest({}) }), {
        title: null,
        agentName: '',
      }),
    ).toEqual({
      title: 'ACP Desktop',
      body: 'The agent has a question for you.',
    });
  });

  it('keeps the text to one short line', () => {
    const long = event({ kind: 'elicitation.requested', requestId: 'e', request: decodeElicitationRequest({ message: `line one\n\n${'x'.repeat(500)}` }) });
    const { body } = notificationContent('elicitation', long, session);
    expect(body.length).toBeLessThanOrEqual(160);
    expect(body).not.toContain('\n');
    expect(body.endsWith('…')).toBe(true);
  });
});
