import type { ContentBlock, DiffPatch, EmbeddedResource, FileChange, ToolContent, ToolLocation, UnknownBlock } from '../../../src-shared/session/content';
import { KNOWN_CONTENT_TYPES, KNOWN_TOOL_CONTENT_TYPES, isKnown } from '../../../src-shared/acp/known';
import { isObject, num, objects, str, type Raw } from '../../../src-shared/acp/read';

/*
 * Content blocks, tool call content and locations, from the wire (any ACP version) into the
 * app's types (`src-shared/session/content.ts`), and prompts back to the wire. Every decoder
 * takes any value and never throws; decoding what it made gives the same value, so the
 * converter of old logs (`legacyEvents.ts`) runs them over every event it reads, old or new.
 */

const KNOWN_FILE_OPERATIONS = ['add', 'delete', 'modify', 'move', 'copy'];

/** One content block; anything not a known block is kept as sent (`unknown`). */
export function decodeContentBlock(value: unknown): ContentBlock {
  const raw = asObject(value);
  const type = str(raw.type) ?? '';
  if (!isKnown(KNOWN_CONTENT_TYPES, type)) return unknownOf(raw, type);
  const extras = { ...optional('annotations', raw.annotations), ...optional('_meta', raw._meta) };
  switch (type) {
    case 'text':
      return { type, text: str(raw.text) ?? '', ...extras };
    case 'image':
      return { type, mimeType: str(raw.mimeType) ?? '', data: str(raw.data) ?? '', ...optional('uri', str(raw.uri)), ...extras };
    case 'audio':
      return { type, mimeType: str(raw.mimeType) ?? '', data: str(raw.data) ?? '', ...extras };
    case 'resource_link':
      return {
        type,
        uri: str(raw.uri) ?? '',
        name: str(raw.name) ?? '',
        ...optional('title', str(raw.title)),
        ...optional('description', str(raw.description)),
        ...optional('mimeType', str(raw.mimeType)),
        ...optional('size', num(raw.size)),
        ...extras,
      };
    case 'resource':
      return { type, resource: embeddedResource(raw.resource), ...extras };
  }
}

/** A list of content blocks (an item that is not a block is kept as an unknown one). */
export function decodeContentBlocks(value: unknown): ContentBlock[] {
  return Array.isArray(value) ? value.map(decodeContentBlock) : [];
}

function embeddedResource(value: unknown): EmbeddedResource {
  const raw = isObject(value) ? value : {};
  return {
    uri: str(raw.uri) ?? '',
    ...optional('mimeType', str(raw.mimeType)),
    ...optional('text', str(raw.text)),
    ...optional('blob', str(raw.blob)),
    ...optional('_meta', raw._meta),
  };
}

/** One item of a tool call's content; a future type is kept as sent (`unknown`). */
export function decodeToolContent(value: unknown): ToolContent {
  const raw = asObject(value);
  const type = str(raw.type) ?? '';
  if (!isKnown(KNOWN_TOOL_CONTENT_TYPES, type)) return unknownOf(raw, type);
  const meta = optional('_meta', raw._meta);
  switch (type) {
    case 'content':
      return { type, content: decodeContentBlock(raw.content), ...meta };
    case 'diff':
      if (Array.isArray(raw.changes)) return { type, changes: objects(raw.changes).map(fileChange), patch: diffPatch(raw.patch), ...meta };
      return {
        type,
        path: str(raw.path) ?? '',
        oldText: str(raw.oldText) ?? null,
        newText: str(raw.newText) ?? '',
        ...(raw.deleted === true ? { deleted: true } : {}),
        ...meta,
      };
    case 'terminal':
      return { type, terminalId: String(raw.terminalId ?? ''), ...meta };
  }
}

/** A tool call's content list (an item that is not tool content is kept as an unknown one). */
export function decodeToolContents(value: unknown): ToolContent[] {
  return Array.isArray(value) ? value.map(decodeToolContent) : [];
}

function fileChange(raw: Raw): FileChange {
  const operation = str(raw.operation) ?? '';
  const change: FileChange = {
    operation,
    path: str(raw.path) ?? '',
    ...optional('oldPath', str(raw.oldPath)),
    ...optional('fileType', str(raw.fileType)),
    ...optional('mimeType', str(raw.mimeType)),
  };
  if (!KNOWN_FILE_OPERATIONS.includes(operation)) change.raw = isObject(raw.raw) ? raw.raw : raw;
  return change;
}

/** The patch text; the SDK's schema names it `text`, the RFD's draft `diff`. No text: no patch. */
function diffPatch(value: unknown): DiffPatch | null {
  if (!isObject(value)) return null;
  const text = str(value.text) ?? str(value.diff);
  return text === undefined ? null : { format: str(value.format) ?? null, text };
}

/** A tool call's location. */
export function decodeLocation(value: unknown): ToolLocation {
  const raw = isObject(value) ? value : {};
  return { path: str(raw.path) ?? '', ...optional('line', num(raw.line)) };
}

export function decodeLocations(value: unknown): ToolLocation[] {
  return objects(value).map(decodeLocation);
}

/** A prompt's blocks as `session/prompt` sends them: known blocks are already in the wire's shape; an unknown one goes as it came. */
export function encodePrompt(blocks: readonly ContentBlock[]): Raw[] {
  return blocks.map((block) => (block.type === 'unknown' ? block.raw : { ...block }));
}

/** An unknown block or tool content; one already decoded stays as it is. */
function unknownOf(raw: Raw, type: string): UnknownBlock {
  if (type === 'unknown' && typeof raw.typeName === 'string' && isObject(raw.raw)) return { type: 'unknown', typeName: raw.typeName, raw: raw.raw };
  return { type: 'unknown', typeName: type || '(no type)', raw };
}

/** A value that is not an object, kept for the unknown block it becomes. */
function asObject(value: unknown): Raw {
  return isObject(value) ? value : value === undefined ? {} : { value };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
