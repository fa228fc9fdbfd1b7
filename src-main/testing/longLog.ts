import type { SessionEvent, SessionEventBody } from '../../src-shared/session/events';
import { EventLog } from '../store/eventLog';
import { decodeV1Update } from '../acp/decode/v1Update';

const words = 'the parser reads each line and folds the event into state while the stream is still arriving so nothing waits'.split(' ');

function sentence(seed: number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += words[(seed * 7 + i * 13) % words.length] + ' ';
  return out;
}

/**
 * What a session's turns hold: `prose` (a reply of sentences, an edit with a diff) or `mixed`
 * (each reply ends in a fenced code block, and every other turn runs a terminal with coloured
 * output instead of an edit): what issue 23 asks scrolling to stay fast through.
 */
export type LongLogContent = 'prose' | 'mixed';

function codeBlock(turn: number): string {
  const lines = Array.from({ length: 8 }, (_, i) => `  const step${i} = await read(${turn + i}, '${sentence(turn + i, 3).trim()}');`);
  return `\n\n\`\`\`ts\nexport async function turn${turn}(): Promise<number> {\n${lines.join('\n')}\n  return step7.length;\n}\n\`\`\`\n`;
}

/** A terminal run by the client for the agent, its output (with colours) and its exit: 1 transcript entry. */
function terminalEvents(turn: number): SessionEventBody[] {
  const terminalId = `term${turn}`;
  const output = Array.from(
    { length: 12 },
    (_, i) => `\u001b[32m✓\u001b[0m test ${turn}.${i} ${sentence(turn + i, 5).trim()} \u001b[2m(${i + 3} ms)\u001b[0m\r\n`,
  ).join('');
  return [
    decodeV1Update({ sessionUpdate: 'tool_call', toolCallId: `c${turn}`, title: `npm test -- turn${turn}`, kind: 'execute', status: 'in_progress' }),
    { kind: 'terminal.created', terminalId, command: 'npm', args: ['test', '--', `turn${turn}`], cwd: '/work/bench' },
    decodeV1Update({ sessionUpdate: 'tool_call_update', toolCallId: `c${turn}`, content: [{ type: 'terminal', terminalId }] }),
    { kind: 'terminal.output', terminalId, data: output },
    { kind: 'terminal.exited', terminalId, exitCode: 0, signal: null },
    { kind: 'terminal.released', terminalId },
    decodeV1Update({ sessionUpdate: 'tool_call_update', toolCallId: `c${turn}`, status: 'completed' }),
  ];
}

/** The events of one turn: 4 transcript entries (the prompt, a streamed reply, a tool call with a diff or a terminal, the stop). */
export function turnEvents(turn: number, label = '', content: LongLogContent = 'prose'): SessionEventBody[] {
  const path = `/work/bench/src/file${turn % 50}.ts`;
  const mixed = content === 'mixed';
  return [
    { kind: 'turn.started', turnId: `t${turn}`, prompt: [{ type: 'text', text: `Question ${turn}${label}: ${sentence(turn, 16)}` }] },
    ...Array.from({ length: 6 }, (_, c): SessionEventBody =>
      decodeV1Update({
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'text', text: sentence(turn + c, 12) + (mixed && c === 5 ? codeBlock(turn) : '') },
      }),
    ),
    ...(mixed && turn % 2 === 1 ? terminalEvents(turn) : editEvents(turn, path)),
    { kind: 'turn.ended', turnId: `t${turn}`, stopReason: 'end_turn' },
  ];
}

function editEvents(turn: number, path: string): SessionEventBody[] {
  return [
    decodeV1Update({
      sessionUpdate: 'tool_call',
      toolCallId: `c${turn}`,
      title: `Edit file${turn % 50}.ts`,
      kind: 'edit',
      status: 'in_progress',
      locations: [{ path }],
    }),
    decodeV1Update({
      sessionUpdate: 'tool_call_update',
      toolCallId: `c${turn}`,
      status: 'completed',
      content: [{ type: 'diff', path, oldText: `const a = ${turn};\n${sentence(turn, 10)}\n`, newText: `const a = ${turn + 1};\n${sentence(turn, 10)}\n` }],
    }),
  ];
}

/**
 * Writes a session log of `entries` transcript entries with the app's own EventLog (for the
 * benchmark and the long-session guard). `label` marks this session's prompts; returns the last seq.
 */
export function writeLongLog(file: string, entries: number, sessionId: string, label = '', content: LongLogContent = 'prose'): number {
  const log = new EventLog(file);
  let seq = 0;
  const ts = Date.UTC(2026, 0, 1);
  const batch: SessionEvent[] = [];
  const add = (body: SessionEventBody) => batch.push({ ...body, sessionId, seq: ++seq, ts: ts + seq } as SessionEvent);
  add({ kind: 'session.created', agentId: 'bench', agentName: 'Bench Agent', cwd: '/work/bench' });
  add({ kind: 'session.connected', acpSessionId: 'acp_bench', how: 'new' });
  for (let turn = 0; turn * 4 < entries; turn++) {
    for (const body of turnEvents(turn, label, content)) add(body);
    if (batch.length > 5000) log.append(batch.splice(0));
  }
  log.append(batch.splice(0));
  log.close();
  return seq;
}
