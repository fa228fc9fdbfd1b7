import { blockText, type ToolContent } from '../session/content';
import type { TranscriptEntry } from '../session/state';

/** The entry kinds search indexes: what the person and the agent said and did. */
export const SEARCHABLE_KINDS: ReadonlySet<TranscriptEntry['kind']> = new Set(['user', 'agent', 'thought', 'tool', 'plan', 'file']);

export { blockText };

/** Text inside a tool call's content list (`content` blocks, diff paths, terminal ids are skipped). */
function toolContentText(content: ToolContent[]): string {
  const parts: string[] = [];
  for (const item of content) {
    if (item.type === 'content') parts.push(blockText(item.content));
    else if (item.type === 'diff') parts.push('changes' in item ? '' : item.path);
  }
  return parts.filter(Boolean).join('\n');
}

/**
 * The text of a transcript entry as search sees it ('' for entries search ignores).
 * Pure, shared by the search index (main) and anything that wants the same view of an entry.
 */
export function entryText(entry: TranscriptEntry): string {
  switch (entry.kind) {
    case 'user':
      return entry.content.map(blockText).filter(Boolean).join('\n');
    case 'agent':
      return [entry.text, ...entry.blocks.map(blockText)].filter(Boolean).join('\n');
    case 'thought':
      return entry.text;
    case 'tool':
      return [entry.title, ...entry.locations.map((l) => l.path), toolContentText(entry.content)].filter(Boolean).join('\n');
    case 'plan':
      return entry.entries.map((item) => item.content).join('\n');
    case 'file':
      return entry.path;
    default:
      return '';
  }
}

/** The first prompt, on one line and clipped: what an untitled session is about. */
export function firstPrompt(entries: readonly TranscriptEntry[], max = 100): string | null {
  const first = entries.find((entry) => entry.kind === 'user');
  if (!first) return null;
  const whole = entryText(first);
  // Only the head is put on one line: a 20 MB prompt was rewritten whole at every catalog update.
  let text = '';
  for (let size = max * 4; ; size *= 4) {
    text = whole.slice(0, size).replace(/\s+/g, ' ').trim();
    if (text.length > max || size >= whole.length) break;
  }
  if (!text) return null;
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

/** Messages a person would count: their prompts and the agent's replies. */
export function countMessages(entries: readonly TranscriptEntry[]): number {
  let count = 0;
  for (const entry of entries) if (entry.kind === 'user' || entry.kind === 'agent') count++;
  return count;
}
