import type { AgentCapabilities } from '../../src-shared/session/controls';
import { blockTypeName, type ContentBlock } from '../../src-shared/session/content';

type PromptCapabilities = AgentCapabilities['promptCapabilities'];

/** Which prompt capability each content block type needs (protocol-v1-initialization). */
const NEEDS: Record<string, { capability: keyof PromptCapabilities; what: string }> = {
  image: { capability: 'image', what: 'images' },
  audio: { capability: 'audio', what: 'audio' },
  resource: { capability: 'embeddedContext', what: 'embedded file contents' },
};

/**
 * Checks a prompt against the agent's `promptCapabilities`: text and resource links are always
 * allowed; images, audio and embedded resources only when advertised; any other block type is
 * refused (an agent must not get content it never agreed to). Returns the reason, or null.
 */
export function refusePromptContent(prompt: readonly ContentBlock[], promptCapabilities: PromptCapabilities, agentName: string): string | null {
  const refused = new Set<string>();
  for (const block of prompt) {
    const type = blockTypeName(block);
    if (type === 'text' || type === 'resource_link') continue;
    const need = NEEDS[type];
    if (!need) {
      refused.add(`"${type}" content`);
      continue;
    }
    if (!promptCapabilities[need.capability]) refused.add(need.what);
  }
  if (refused.size === 0) return null;
  return `${agentName || 'This agent'} does not accept ${[...refused].join(', ')} in prompts (not in its prompt capabilities). Remove them, or attach files as links instead.`;
}
