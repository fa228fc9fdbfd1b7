import type { PlanItem, ToolCallFields } from '../../../src-shared/session/agentEvents';
import { objects, str, type Raw } from '../../../src-shared/acp/read';
import { decodeLocations, decodeToolContents } from './content';
import { decodeToolCapabilities } from './controls';

/*
 * Fields of protocol values read into the app's events, shared by the dialects
 * (`src-main/acp/dialects/`) and the converter of old logs (`session/legacyEvents.ts`).
 */

/**
 * v1 tool call fields: what has the right type is set (v1 has no way to clear a field), the
 * raw input and output as sent whenever present, `_meta` replaced whole.
 */
export function v1ToolFields(raw: Raw): ToolCallFields {
  const fields: ToolCallFields = {};
  if (typeof raw.title === 'string') fields.title = raw.title;
  if (typeof raw.kind === 'string') fields.toolKind = raw.kind;
  if (typeof raw.status === 'string') fields.status = raw.status;
  if (Array.isArray(raw.content)) fields.content = decodeToolContents(raw.content);
  if (Array.isArray(raw.locations)) fields.locations = decodeLocations(raw.locations);
  if ('rawInput' in raw) fields.rawInput = raw.rawInput;
  if ('rawOutput' in raw) fields.rawOutput = raw.rawOutput;
  if ('_meta' in raw) fields.meta = raw._meta;
  return fields;
}

export function planItems(value: unknown): PlanItem[] {
  return objects(value).map((raw) => ({
    content: str(raw.content) ?? '',
    priority: str(raw.priority) ?? 'medium',
    status: str(raw.status) ?? 'pending',
    raw,
  }));
}

/**
 * v2 tool call fields (`tool_call_update` is a patch): a field present with `null` resets it, a
 * value replaces it; `cancelled` is the app's `canceled`.
 */
export function v2ToolFields(raw: Raw): ToolCallFields {
  const fields: ToolCallFields = {};
  if ('title' in raw) fields.title = str(raw.title) ?? null;
  if ('kind' in raw) fields.toolKind = str(raw.kind) ?? null;
  if ('status' in raw) {
    const status = str(raw.status);
    fields.status = status === 'cancelled' ? 'canceled' : (status ?? null);
  }
  if ('content' in raw) fields.content = Array.isArray(raw.content) ? decodeToolContents(raw.content) : null;
  if ('locations' in raw) fields.locations = Array.isArray(raw.locations) ? decodeLocations(raw.locations) : null;
  if ('rawInput' in raw) fields.rawInput = raw.rawInput;
  if ('rawOutput' in raw) fields.rawOutput = raw.rawOutput;
  if ('name' in raw) fields.name = str(raw.name) ?? null;
  if ('capabilities' in raw) fields.capabilities = decodeToolCapabilities(raw.capabilities);
  if ('_meta' in raw) fields.meta = raw._meta;
  return fields;
}
