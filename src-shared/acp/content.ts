import { KNOWN_CONTENT_TYPES, KNOWN_TOOL_CONTENT_TYPES, isKnown } from './known';
import { isObject, memoView, num, obj, objects, str, type Raw } from './read';

/** An ACP content block, typed by `type`; `unknown` keeps a future or extension type as it came. */
export type ContentBlockView =
  | { type: 'text'; text: string; raw: Raw }
  | { type: 'image'; mimeType: string; data: string; uri?: string; raw: Raw }
  | { type: 'audio'; mimeType: string; data: string; raw: Raw }
  | { type: 'resource_link'; uri: string; name: string; title?: string; size?: number; raw: Raw }
  | { type: 'resource'; uri: string; text?: string; mimeType?: string; raw: Raw }
  | { type: 'unknown'; typeName: string; raw: Raw };

export const contentBlockView = memoView((raw): ContentBlockView => {
  const type = str(raw.type) ?? '';
  if (!isKnown(KNOWN_CONTENT_TYPES, type)) return { type: 'unknown', typeName: type || '(no type)', raw };
  switch (type) {
    case 'text':
      return { type, text: str(raw.text) ?? '', raw };
    case 'image':
      return { type, mimeType: str(raw.mimeType) ?? '', data: str(raw.data) ?? '', uri: str(raw.uri), raw };
    case 'audio':
      return { type, mimeType: str(raw.mimeType) ?? '', data: str(raw.data) ?? '', raw };
    case 'resource_link':
      return { type, uri: str(raw.uri) ?? '', name: str(raw.name) ?? '', title: str(raw.title), size: num(raw.size), raw };
    case 'resource': {
      const resource = obj(raw.resource);
      return { type, uri: str(resource.uri) ?? '', text: str(resource.text), mimeType: str(resource.mimeType), raw };
    }
  }
});

/** The readable text of one content block (text, resource links, embedded resources). */
export function blockText(raw: Raw): string {
  const block = contentBlockView(raw);
  switch (block.type) {
    case 'text':
      return block.text;
    case 'resource_link':
      return [block.name, block.uri].filter(Boolean).join(' ');
    case 'resource':
      return [block.uri, block.text ?? ''].filter(Boolean).join('\n');
    default:
      return '';
  }
}

/** One item of a tool call's `content`, typed by `type`; `unknown` keeps the item as it came. */
export type ToolContentView =
  | { type: 'content'; block: ContentBlockView | null; raw: Raw }
  /** `changes`: a diff given as a list of file changes with an optional patch (ACP v2), else null. */
  | { type: 'diff'; path: string; oldText: string | null; newText: string; deleted: boolean; changes: Raw[] | null; raw: Raw }
  | { type: 'terminal'; terminalId: string; raw: Raw }
  | { type: 'unknown'; typeName: string; raw: Raw };

export const toolContentView = memoView((raw): ToolContentView => {
  const type = str(raw.type) ?? '';
  if (!isKnown(KNOWN_TOOL_CONTENT_TYPES, type)) return { type: 'unknown', typeName: type || '(no type)', raw };
  switch (type) {
    case 'content':
      return { type, block: isObject(raw.content) ? contentBlockView(raw.content) : null, raw };
    case 'diff':
      return {
        type,
        path: str(raw.path) ?? '',
        oldText: str(raw.oldText) ?? null,
        newText: str(raw.newText) ?? '',
        deleted: raw.deleted === true,
        changes: Array.isArray(raw.changes) ? objects(raw.changes) : null,
        raw,
      };
    case 'terminal':
      return { type, terminalId: String(raw.terminalId ?? ''), raw };
  }
});

/** A tool call's `locations` item: a path and maybe a line. */
export type LocationView = { path: string; line: number | null; raw: Raw };
export const locationView = memoView((raw): LocationView => ({ path: str(raw.path) ?? '', line: num(raw.line) ?? null, raw }));
