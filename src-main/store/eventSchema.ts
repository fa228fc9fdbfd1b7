import { z } from 'zod';
import type { SessionEvent, SessionEventKind } from '../../src-shared/session/events';
import { upgradeEvent } from '../acp/decode/legacyEvents';

/*
 * What a line of a session log must look like to be folded: the fields the reducer relies on,
 * with their types. Extra fields pass (a newer app may add some). A line that parses as JSON but
 * has the wrong shape (`{"kind":"turn.started","prompt":null}`) is skipped and counted like a torn
 * one, instead of throwing in the fold and making the session unopenable. A line an older release
 * wrote is converted first (`legacyEvents.ts`).
 */

const object = z.record(z.string(), z.unknown());
const str = z.string();
const optionalStr = z.string().nullish();
const content = z.array(z.looseObject({ type: z.string() }));

const bodies = {
  'session.created': {
    agentId: str,
    agentName: str,
    cwd: str,
    title: optionalStr,
    acpSessionId: optionalStr,
    forkedFrom: optionalStr,
    continuedFrom: optionalStr,
  },
  'session.connected': {
    acpSessionId: str,
    how: str,
    configOptions: z.array(z.unknown()).nullish(),
    modes: object.nullish(),
    models: object.nullish(),
    capabilities: object.nullish(),
    agentInfo: object.nullish(),
  },
  'turn.started': { turnId: str, prompt: content },
  'turn.ended': { turnId: str, stopReason: str, error: optionalStr, usage: object.nullish() },
  'prompt.queued': { queueId: str, prompt: content },
  'prompt.dequeued': { queueId: str },
  'permission.requested': {
    requestId: str,
    toolCallId: str,
    tool: object,
    options: z.array(z.looseObject({ optionId: str, name: str, kind: str })),
    standalone: z.boolean().optional(),
  },
  'permission.resolved': { requestId: str, optionId: z.string().nullable(), reason: optionalStr },
  'elicitation.requested': { requestId: str, request: object },
  'elicitation.resolved': { requestId: str, action: z.enum(['accept', 'decline', 'cancel']), content: object.optional() },
  'elicitation.completed': { elicitationId: str },
  'terminal.created': { terminalId: str, command: str, args: z.array(z.string()), cwd: optionalStr, interactive: z.boolean().optional() },
  'terminal.output': { terminalId: str, data: str },
  'terminal.exited': { terminalId: str, exitCode: z.number().nullable(), signal: z.string().nullable() },
  'terminal.released': { terminalId: str },
  'file.written': { path: str, oldText: z.string().nullable(), newText: str },
  'config.options': { configOptions: z.array(z.unknown()) },
  'mode.changed': { modeId: str, byAgent: z.boolean().optional() },
  'title.changed': { title: str, byPerson: z.boolean().optional() },
  'session.bound': { acpSessionId: str, origin: str },
  'acp.rejected': { method: str, params: object, error: object, note: optionalStr },
  'auth.required': { methods: z.array(z.looseObject({ id: str, name: str, type: str })), message: optionalStr },
  'auth.completed': { methodId: str },
  'agent.exited': { code: z.number().nullable(), signal: z.string().nullable(), stderrTail: z.array(z.string()), stderrLog: z.string().optional() },
  notice: { level: z.enum(['info', 'warning', 'error']), message: str },
  'session.readonly': { reason: str },
  'message.chunk': { role: str, messageId: optionalStr, content: z.looseObject({ type: str }) },
  'message.upserted': { role: str, messageId: str, content: content.optional() },
  'tool.updated': { toolCallId: str, fields: object, metaPatch: z.boolean().optional() },
  'tool.contentAppended': { toolCallId: str, content: z.looseObject({ type: str }) },
  'plan.replaced': { planId: optionalStr, entries: z.array(z.looseObject({ content: str, priority: str, status: str, raw: object })) },
  'commands.updated': { commands: z.array(object) },
  'session.info': { title: optionalStr, updatedAt: optionalStr },
  'usage.updated': { used: z.number().optional(), size: z.number().optional(), cost: z.looseObject({ amount: z.number(), currency: str }).nullable() },
  'agentTerminal.updated': { terminalId: str, raw: object },
  'session.state': { state: str, turnEnded: z.boolean(), raw: object },
  'update.unknown': { label: str, raw: object },
  // checkpoints (issue 24)
  'checkpoint.taken': {
    checkpointId: str,
    reason: str,
    turnId: z.string().nullable(),
    folders: z.array(z.looseObject({ root: str, commit: z.string().nullable() })),
  },
  'turn.changes': { turnId: str, before: str, after: str, files: z.array(z.looseObject({ root: str, path: str, status: str })) },
  'checkpoint.restored': {
    checkpointId: str,
    undoCheckpointId: str,
    turnId: z.string().nullable(),
    label: str,
    files: z.array(z.looseObject({ root: str, path: str })),
  },
  'review.kept': { scope: str, root: str, path: str, hunks: z.array(z.string()) },
  'review.rejected': { scope: str, root: str, path: str, hunk: z.string().nullable() },
} satisfies Record<Exclude<SessionEventKind, `_${string}`>, z.ZodRawShape>;

const base = z.looseObject({ sessionId: str, seq: z.number().int().nonnegative(), ts: z.number(), kind: str });
const byKind = new Map<string, z.ZodType>(Object.entries(bodies).map(([kind, shape]) => [kind, z.looseObject(shape)]));

/** A line with an event's base fields (checked by zod; the line itself is kept, not a copy). */
const isEventLine = (value: unknown): value is z.output<typeof base> => base.safeParse(value).success;

/** The event, or null when the line has the wrong shape. Unknown kinds pass (shown raw by the reducer). */
export function validEvent(parsed: unknown): SessionEvent | null {
  if (!isEventLine(parsed)) return null;
  const value = upgradeEvent(parsed);
  if (!value) return null;
  const schema = byKind.get((value as { kind: string }).kind);
  if (schema && !schema.safeParse(value).success) return null;
  return value as SessionEvent;
}
