import type { SessionEvent, SessionEventBody } from '../../src-shared/session/events';
import { EventLog } from '../store/eventLog';
import { decodeV1Update } from '../acp/decode/v1Update';

const words = 'the parser reads each line and folds the event into state while the stream is still arriving so nothing waits'.split(' ');

function sentence(seed: number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += words[(seed * 7 + i * 13) % words.length] + ' ';
  return out;
}

/** The events of one turn: 4 transcript entries (the prompt, a streamed reply, a tool call with a diff, the stop). */
export function turnEvents(turn: number, label = ''): SessionEventBody[] {
  const path = `/work/bench/src/file${turn % 50}.ts`;
  return [
    { kind: 'turn.started', turnId: `t${turn}`, prompt: [{ type: 'text', text: `Question ${turn}${label}: ${sentence(turn, 16)}` }] },
    ...Array.from({ length: 6 }, (_, c): SessionEventBody =>
      decodeV1Update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: sentence(turn + c, 12) } }),
    ),
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
    { kind: 'turn.ended', turnId: `t${turn}`, stopReason: 'end_turn' },
  ];
}

/**
 * Writes a session log of `entries` transcript entries with the app's own EventLog (for the
 * benchmark and the long-session guard). `label` marks this session's prompts; returns the last seq.
 */
export function writeLongLog(file: string, entries: number, sessionId: string, label = ''): number {
  const log = new EventLog(file);
  let seq = 0;
  const ts = Date.UTC(2026, 0, 1);
  const batch: SessionEvent[] = [];
  const add = (body: SessionEventBody) => batch.push({ ...body, sessionId, seq: ++seq, ts: ts + seq } as SessionEvent);
  add({ kind: 'session.created', agentId: 'bench', agentName: 'Bench Agent', cwd: '/work/bench' });
  add({ kind: 'session.connected', acpSessionId: 'acp_bench', how: 'new' });
  for (let turn = 0; turn * 4 < entries; turn++) {
    for (const body of turnEvents(turn, label)) add(body);
    if (batch.length > 5000) log.append(batch.splice(0));
  }
  log.append(batch.splice(0));
  log.close();
  return seq;
}
