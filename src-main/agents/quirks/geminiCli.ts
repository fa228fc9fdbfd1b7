/**
 * Quirk: Gemini CLI (`@google/gemini-cli --experimental-acp` / `--acp`) sends each thought chunk
 * as `**<subject>**\n<text>`; with an empty subject every chunk begins with `"****\n"`, which
 * shows as raw asterisks (or a rule) in the thought. The marker is removed from thought chunks.
 */
import type { RawObject } from '../../../src-shared/session/events';

export function isGemini(agentId: string): boolean {
  return /gemini/i.test(agentId);
}

const EMPTY_SUBJECT = /^\*\*\*\*(\r?\n|$)/;

export function stripThoughtMarker(update: RawObject): RawObject {
  if (update.sessionUpdate !== 'agent_thought_chunk') return update;
  const content = update.content as RawObject | undefined;
  if (content?.type !== 'text' || typeof content.text !== 'string' || !EMPTY_SUBJECT.test(content.text)) return update;
  return { ...update, content: { ...content, text: content.text.replace(EMPTY_SUBJECT, '') } };
}
