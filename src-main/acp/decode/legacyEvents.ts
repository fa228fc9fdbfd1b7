import { isObject, str, type Raw } from '../../../src-shared/acp/read';
import { typedContent } from './legacyContent';
import { decodeV1Update } from './v1Update';
import { planItems, v1ToolFields, v2ToolFields } from './wireFields';
import { decodeEventControls } from './controls';

/**
 * Logs written before the app had its own events (up to commit ed75a3c) stored ACP v1's
 * `session/update` payloads as they came (`acp.update`), permission requests with the agent's
 * raw `toolCall`, and v2's "neutral" kinds with raw patches. This converts one such event, as
 * read from a log line, into today's event with the same `seq` (one event in, one out); today's
 * events pass unchanged; null when an old event cannot be read (it is skipped as damaged). What it made of an old log folds to the state the old app showed
 * (`src-main/store/legacyLog.test.ts`, on logs that release wrote).
 */
export function upgradeEvent(event: Raw): Raw | null {
  // Content and control values (blocks, config options, commands, usage, questions, …) were written raw before: decode them too.
  const upgraded = upgradeKind(event);
  return upgraded && decodeEventControls(typedContent(upgraded));
}

function upgradeKind(event: Raw): Raw | null {
  switch (event.kind) {
    case 'acp.update':
      return isObject(event.update) ? { ...base(event), ...decodeV1Update(event.update) } : null;
    case 'permission.requested': {
      if (!isObject(event.toolCall)) return event;
      const { toolCall, ...rest } = event;
      return { ...rest, toolCallId: str(toolCall.toolCallId) ?? `permission-${String(event.requestId)}`, tool: v1ToolFields(toolCall) };
    }
    case 'tool.patched':
      return {
        ...base(event),
        kind: 'tool.updated',
        toolCallId: event.toolCallId,
        fields: v2ToolFields(isObject(event.patch) ? event.patch : {}),
        metaPatch: true,
      };
    case 'plan.updated': {
      const plan = isObject(event.plan) ? event.plan : {};
      if (plan.type !== 'items' || !Array.isArray(plan.entries))
        return { ...base(event), kind: 'update.unknown', label: `plan ${String(plan.type)}`, raw: plan };
      return { ...base(event), kind: 'plan.replaced', planId: event.planId, entries: planItems(plan.entries) };
    }
    case 'session.state':
      // The turn's usage was read from the raw snapshot.
      if ('usage' in event || !isObject(event.raw)) return event;
      return { ...event, usage: isObject(event.raw.usage) ? event.raw.usage : null };
    default:
      return event;
  }
}

function base(event: Raw): Raw {
  return { sessionId: event.sessionId, seq: event.seq, ts: event.ts };
}
