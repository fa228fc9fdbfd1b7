import type { RawObject } from './raw';

/*
 * What prompts, messages and tool calls carry, in the app's own types. Known variants keep the
 * wire's field names (a log stays close to what was sent, and a prompt goes out as it is
 * typed); a future or `_` type keeps its raw value and is shown generically. The decoders (wire
 * or old log → these) are in `src-main/acp/decode/content.ts`.
 */

/** Fields any content block may carry; kept, not read (annotations are hints for the agent's own use). */
type BlockExtras = {
  annotations?: unknown;
  _meta?: unknown;
};

export type TextBlock = { type: 'text'; text: string } & BlockExtras;
export type ImageBlock = { type: 'image'; mimeType: string; data: string; uri?: string } & BlockExtras;
export type AudioBlock = { type: 'audio'; mimeType: string; data: string } & BlockExtras;
export type ResourceLinkBlock = {
  type: 'resource_link';
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
} & BlockExtras;
/** An embedded resource: its text, or its bytes (`blob`, base64). */
export type EmbeddedResource = {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
  _meta?: unknown;
};
export type ResourceBlock = { type: 'resource'; resource: EmbeddedResource } & BlockExtras;
/** A content block of a type this version does not know (`typeName`), as sent. */
export type UnknownBlock = {
  type: 'unknown';
  typeName: string;
  raw: RawObject;
};

/** A prompt's or a message's content block. */
export type ContentBlock = TextBlock | ImageBlock | AudioBlock | ResourceLinkBlock | ResourceBlock | UnknownBlock;

/**
 * One file an ACP v2 diff changes: `add`, `delete`, `modify`, `move`, `copy` (a move or copy
 * names `oldPath`), or a future operation, whose change as sent is in `raw`.
 */
export type FileChange = {
  operation: 'add' | 'delete' | 'modify' | 'move' | 'copy' | (string & {});
  path: string;
  oldPath?: string;
  /** `text`, `binary`, `directory`, `symlink`, or a future value. */
  fileType?: string;
  mimeType?: string;
  raw?: RawObject;
};

/** Patch text for a diff's changes (`format`: `git_patch`, or another the agent names). */
export type DiffPatch = {
  format: string | null;
  text: string;
};

/** ACP v1: a file's text before (null: a new file) and after; `deleted` (rfds-diff-delete) when the change removed it. */
export type TextDiff = {
  type: 'diff';
  path: string;
  oldText: string | null;
  newText: string;
  deleted?: boolean;
  _meta?: unknown;
};
/** ACP v2: the files changed, and patch text for them when the agent has it. */
export type ChangesDiff = {
  type: 'diff';
  changes: FileChange[];
  patch: DiffPatch | null;
  _meta?: unknown;
};

/** One item of a tool call's content: a content block, a diff, a terminal, or a future type as sent. */
export type ToolContent =
  | { type: 'content'; content: ContentBlock; _meta?: unknown }
  | TextDiff
  | ChangesDiff
  | { type: 'terminal'; terminalId: string; _meta?: unknown }
  | UnknownBlock;

/** A file a tool call works on, and maybe the line. */
export type ToolLocation = {
  path: string;
  line?: number | null;
};

/** The readable text of one content block (text, resource links, embedded resources). */
export function blockText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'resource_link':
      return [block.name, block.uri].filter(Boolean).join(' ');
    case 'resource':
      return [block.resource.uri, block.resource.text ?? ''].filter(Boolean).join('\n');
    default:
      return '';
  }
}

/** A block's type as a person reads it (an unknown block: the type it came with). */
export function blockTypeName(block: ContentBlock | ToolContent): string {
  return block.type === 'unknown' ? block.typeName : block.type;
}
