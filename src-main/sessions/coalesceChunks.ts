import type { SessionEvent } from '../../src-shared/session/events';

type Chunk = Extract<SessionEvent, { kind: 'message.chunk' }>;

const EVENT_KEYS = new Set(['sessionId', 'seq', 'ts', 'kind', 'role', 'messageId', 'content']);

/** A plain text chunk of an agent message or thought (no fields but these), which can be merged with its neighbours. */
function plainChunk(event: SessionEvent): event is Chunk {
  if (event.kind !== 'message.chunk' || event.role === 'user') return false;
  for (const key in event) if (!EVENT_KEYS.has(key)) return false;
  const content = event.content;
  if (content.type !== 'text') return false;
  for (const key in content) if (key !== 'type' && key !== 'text') return false;
  return true;
}

const textOf = (content: Chunk['content']): string => (content.type === 'text' ? content.text : '');

/**
 * What the window is sent for a frame's events: a run of text chunks to the same
 * message becomes one chunk carrying all but the last one's text, at the first one's `seq`
 * (entry ids come from it), followed by the last chunk as it was (so the window's `lastSeq`
 * is the same as without merging and its gap check holds). The log still records every chunk;
 * the folded state is the same; the order of everything else is untouched.
 */
export function coalesceChunks(events: SessionEvent[]): SessionEvent[] {
  const out: SessionEvent[] = [];
  for (let i = 0; i < events.length;) {
    const first = events[i];
    if (!plainChunk(first)) {
      out.push(first);
      i++;
      continue;
    }
    let end = i + 1;
    while (end < events.length) {
      const next = events[end];
      if (!plainChunk(next) || next.role !== first.role || next.messageId !== first.messageId) break;
      end++;
    }
    if (end - i <= 2) {
      for (let j = i; j < end; j++) out.push(events[j]);
    } else {
      let text = '';
      for (let j = i; j < end - 1; j++) text += textOf((events[j] as Chunk).content);
      out.push({ ...first, content: { type: 'text', text } });
      out.push(events[end - 1]);
    }
    i = end;
  }
  return out;
}
