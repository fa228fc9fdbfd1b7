import type { SessionState, ToolCallEntry, TranscriptEntry } from '../session/state';
import { blockText, type ChangesDiff, type ContentBlock } from '../session/content';
import { lineDiff } from './lineDiff';
import type { StopReasonLabels } from '../acp/known';

export interface MarkdownOptions {
  /** When the export was made (ISO); left out when absent so tests are stable. */
  exportedAt?: string;
}

/** A fence longer than any run of backticks inside `text`, so code never closes it early. */
function fence(text: string, info = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${info}\n${text.replace(/\n$/, '')}\n${ticks}`;
}

function quote(text: string): string {
  return text
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n');
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

function diffBlock(path: string, oldText: string | null, newText: string): string {
  const lines = lineDiff(oldText, newText).map((line) => `${line.op}${line.text}`);
  const shown = path.startsWith('/') ? path : `b/${path}`;
  const header = `--- ${oldText === null ? '/dev/null' : path.startsWith('/') ? path : `a/${path}`}\n+++ ${shown}`;
  return fence(`${header}\n${lines.join('\n')}`, 'diff');
}

/** An ACP v2 diff: the changed files listed, then the patch as the agent sent it. */
function changesBlock({ changes, patch }: ChangesDiff): string {
  const list = changes.map((change) => {
    const from = change.oldPath !== undefined ? ` (from \`${change.oldPath}\`)` : '';
    return `- ${change.operation || 'change'} \`${change.path}\`${from}`;
  });
  return [list.join('\n'), patch?.text ? fence(patch.text, 'diff') : ''].filter(Boolean).join('\n\n');
}

function contentBlock(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
      return `_[image${block.mimeType ? `, ${block.mimeType}` : ''}]_`;
    case 'audio':
      return '_[audio]_';
    case 'resource_link':
      return `[${block.name || block.uri}](${block.uri})`;
    case 'resource':
      return `Attached: ${fence(blockText(block))}`;
    default:
      return `_[${block.typeName} content]_\n\n${fence(json(block.raw), 'json')}`;
  }
}

function toolCall(entry: ToolCallEntry): string {
  const out: string[] = [];
  out.push(`#### Tool call: ${entry.title || entry.toolCallId} — ${entry.status.replace(/_/g, ' ')}`);
  const facts = [`kind: ${entry.toolKind}`];
  const paths = entry.locations.map((l) => `${l.path}${typeof l.line === 'number' ? `:${l.line}` : ''}`).filter(Boolean);
  if (paths.length) facts.push(`locations: ${paths.map((p) => `\`${p}\``).join(', ')}`);
  out.push(`_${facts.join(' · ')}_`);
  for (const item of entry.content) {
    if (item.type === 'diff' && 'changes' in item) out.push(changesBlock(item));
    else if (item.type === 'diff') out.push(diffBlock(item.path, item.oldText, item.newText));
    else if (item.type === 'content') out.push(contentBlock(item.content));
    else if (item.type === 'terminal') out.push(`_[terminal ${item.terminalId}]_`);
    else out.push(fence(json(item.raw), 'json'));
  }
  if (entry.rawInput !== undefined && !entry.content.some((c) => c.type === 'diff')) out.push(`Input:\n\n${fence(json(entry.rawInput), 'json')}`);
  if (entry.rawOutput !== undefined) out.push(`Output:\n\n${fence(json(entry.rawOutput), 'json')}`);
  return out.join('\n\n');
}

const STOP_LABELS: Record<string, string> = {
  end_turn: 'Turn ended',
  cancelled: 'Stopped',
  max_tokens: 'Stopped: token limit reached',
  max_turn_requests: 'Stopped: request limit reached',
  refusal: 'The agent refused',
  interrupted: 'Interrupted',
  error: 'Failed',
  auth_required: 'Waiting for sign-in',
} satisfies StopReasonLabels;

function entryMarkdown(entry: TranscriptEntry, state: SessionState): string {
  switch (entry.kind) {
    case 'user':
      return `### You\n\n${entry.content.map((b) => contentBlock(b)).join('\n\n')}`;
    case 'agent':
      return `### ${state.agentName || 'Agent'}\n\n${[entry.text, ...entry.blocks.map((b) => contentBlock(b))].filter(Boolean).join('\n\n')}`;
    case 'thought':
      return `${quote(`**Thought:** ${entry.text}`)}`;
    case 'tool':
      return toolCall(entry);
    case 'plan':
      return `#### Plan\n\n${entry.entries
        .map((item) => `- [${item.status === 'completed' ? 'x' : ' '}] ${item.content} _(${item.priority}, ${item.status.replace(/_/g, ' ')})_`)
        .join('\n')}`;
    case 'stop':
      return `_${STOP_LABELS[entry.stopReason] ?? `Stop reason: ${entry.stopReason}`}${entry.error ? `: ${entry.error}` : ''}_\n\n---`;
    case 'notice':
      return quote(
        `**${entry.level === 'error' ? 'Error' : entry.level === 'warning' ? 'Warning' : 'Note'}:** ${entry.message}${entry.detail?.length ? `\n\n${entry.detail.join('\n')}` : ''}`,
      );
    case 'file':
      return `#### Wrote \`${entry.path}\`\n\n${diffBlock(entry.path, entry.oldText, entry.newText)}`;
    case 'restore':
      return quote(`**Files restored** to before message ${entry.label}: ${entry.files.map((file) => `\`${file.path}\``).join(', ') || 'none changed'}`);
    case 'unknown':
      return `#### ${entry.label} (not understood by this version)\n\n${fence(json(entry.raw), 'json')}`;
  }
}

/**
 * A session as readable Markdown: who said what, tool calls with their status and diffs,
 * plans, stop reasons. Pure: give it the folded state of the session's log.
 */
export function sessionToMarkdown(state: SessionState, options: MarkdownOptions = {}): string {
  const out: string[] = [];
  out.push(`# ${state.title ?? 'Session'}`);
  const facts = [
    `- Agent: ${state.agentName || state.agentId}`,
    `- Workspace: \`${state.cwd}\``,
    `- Session: \`${state.sessionId}\`${state.acpSessionId ? ` (agent session \`${state.acpSessionId}\`)` : ''}`,
  ];
  if (state.lastActivity) facts.push(`- Last activity: ${new Date(state.lastActivity).toISOString()}`);
  if (options.exportedAt) facts.push(`- Exported: ${options.exportedAt}`);
  out.push(facts.join('\n'));
  out.push('---');
  for (const entry of state.entries) out.push(entryMarkdown(entry, state));
  return out.join('\n\n') + '\n';
}

/** A file name for an export: the title, made safe, plus the extension. */
export function exportFileName(state: Pick<SessionState, 'title' | 'sessionId'>, extension: string): string {
  const base =
    (state.title ?? state.sessionId)
      .replace(/[^\p{L}\p{N}._ -]+/gu, '')
      .trim()
      .replace(/\s+/g, '-')
      .slice(0, 80) || state.sessionId;
  return `${base}.${extension}`;
}
