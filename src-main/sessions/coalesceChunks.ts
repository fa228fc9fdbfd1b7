import type { SessionEvent } from '../../src-shared/session/events';

type Chunk = SessionEvent & { kind: 'acp.update'; update: { sessionUpdate: string; content: { type: 'text'; text: string }; messageId?: string } };

const MERGEABLE = new Set(['agent_message_chunk', 'agent_thought_chunk']);

/** A plain text chunk (no fields but kind, content and messageId), which can be merged with its neighbours. */
function plainChunk(event: SessionEvent): event is Chunk {
  if (event.kind !== 'acp.update') return false;
  const update = event.update as Record<string, unknown>;
  if (!MERGEABLE.has(update.sessionUpdate as string)) return false;
  for (const key in update) if (key !== 'sessionUpdate' && key !== 'content' && key !== 'messageId') return false;
  const content = update.content as Record<string, unknown> | null;
  if (!content || content.type !== 'text' || typeof content.text !== 'string') return false;
  for (const key in content) if (key !== 'type' && key !== 'text') return false;
  return true;
}

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
      if (!plainChunk(next) || next.update.sessionUpdate !== first.update.sessionUpdate || next.update.messageId !== first.update.messageId) break;
      end++;
    }
    if (end - i <= 2) {
      for (let j = i; j < end; j++) out.push(events[j]);
    } else {
      let text = '';
      for (let j = i; j < end - 1; j++) text += (events[j] as Chunk).update.content.text;
      out.push({ ...first, update: { ...first.update, content: { type: 'text', text } } } as SessionEvent);
      out.push(events[end - 1]);
    }
    i = end;
  }
  return out;
}
