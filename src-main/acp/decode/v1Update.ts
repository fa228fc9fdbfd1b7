import type { AgentEventBody } from '../../../src-shared/session/agentEvents';
import { isKnown, KNOWN_UPDATE_KINDS } from '../../../src-shared/acp/known';
import { isObject, str, type Raw } from '../../../src-shared/acp/read';
import { decodeContentBlock } from './content';
import { decodeCommands, decodeConfigOptions, decodeContextUsage } from './controls';
import { planItems, v1ToolFields } from './wireFields';

/**
 * An ACP v1 `session/update` (the `update` object) in the app's events. The v1 dialect decodes
 * with it (`src-main/acp/dialects/v1.ts`), and so does the converter of logs written before the
 * app had its own events, which stored these payloads as they came (`session/legacyEvents.ts`).
 * A kind this version does not know, or a known kind it cannot read, stays raw (`update.unknown`):
 * one update is always one event (a log's events keep their numbers when converted).
 */
export function decodeV1Update(update: Raw): AgentEventBody {
  const kind = str(update.sessionUpdate) ?? '';
  if (!isKnown(KNOWN_UPDATE_KINDS, kind)) return unknown(update, kind || '(no kind)');
  switch (kind) {
    case 'agent_message_chunk':
    case 'agent_thought_chunk':
    case 'user_message_chunk': {
      // Not a content block: nothing to show (as before), but kept in the log.
      if (!isObject(update.content)) return unknown(update, `${kind} without content`);
      const role = kind === 'agent_message_chunk' ? 'agent' : kind === 'agent_thought_chunk' ? 'thought' : 'user';
      const messageId = str(update.messageId);
      return {
        kind: 'message.chunk',
        role,
        ...(messageId ? { messageId } : {}),
        content: decodeContentBlock(update.content),
        ...('_meta' in update ? { meta: update._meta } : {}),
      };
    }
    case 'tool_call':
    case 'tool_call_update':
      return { kind: 'tool.updated', toolCallId: str(update.toolCallId) ?? '', fields: v1ToolFields(update) };
    case 'plan':
      return { kind: 'plan.replaced', entries: planItems(update.entries) };
    case 'available_commands_update':
      return { kind: 'commands.updated', commands: decodeCommands(update.availableCommands) };
    case 'current_mode_update': {
      const modeId = str(update.currentModeId) || str(update.modeId);
      return modeId ? { kind: 'mode.changed', modeId, byAgent: true } : unknown(update, `${kind} without a mode`);
    }
    case 'config_option_update':
      return Array.isArray(update.configOptions)
        ? { kind: 'config.options', configOptions: decodeConfigOptions(update.configOptions) }
        : unknown(update, `${kind} without options`);
    case 'session_info_update': {
      const info: Extract<AgentEventBody, { kind: 'session.info' }> = { kind: 'session.info' };
      if ('title' in update) info.title = str(update.title) ?? null;
      if ('updatedAt' in update) info.updatedAt = str(update.updatedAt) ?? null;
      if ('_meta' in update) info.meta = update._meta;
      return info;
    }
    case 'usage_update': {
      return { kind: 'usage.updated', ...decodeContextUsage(update) };
    }
  }
}

function unknown(update: Raw, what: string): AgentEventBody {
  return { kind: 'update.unknown', label: `update ${what}`, raw: update };
}
