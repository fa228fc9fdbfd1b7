import { isObject, type Raw } from '../../../src-shared/acp/read';
import { decodeContentBlock, decodeContentBlocks, decodeLocations, decodeToolContent, decodeToolContents } from './content';

/**
 * The content of one event read from a log, in the app's types: logs written before content was
 * typed hold blocks, tool content and locations as the agent sent them. The decoders leave what
 * is already typed as it is, so this runs over every event read, old or new.
 */
export function typedContent(event: Raw): Raw {
  switch (event.kind) {
    case 'turn.started':
    case 'prompt.queued':
      return Array.isArray(event.prompt) ? { ...event, prompt: decodeContentBlocks(event.prompt) } : event;
    case 'message.chunk':
      return 'content' in event ? { ...event, content: decodeContentBlock(event.content) } : event;
    case 'message.upserted':
      return Array.isArray(event.content) ? { ...event, content: decodeContentBlocks(event.content) } : event;
    case 'tool.contentAppended':
      return 'content' in event ? { ...event, content: decodeToolContent(event.content) } : event;
    case 'tool.updated':
      return isObject(event.fields) ? { ...event, fields: toolFields(event.fields) } : event;
    case 'permission.requested':
      return isObject(event.tool) ? { ...event, tool: toolFields(event.tool) } : event;
    default:
      return event;
  }
}

function toolFields(fields: Raw): Raw {
  const next = { ...fields };
  if (Array.isArray(fields.content)) next.content = decodeToolContents(fields.content);
  if (Array.isArray(fields.locations)) next.locations = decodeLocations(fields.locations);
  return next;
}
