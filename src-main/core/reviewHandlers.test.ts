import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionEvent, SessionEventBody } from '../../src-shared/session/events';
import { decodeV1Update } from '../acp/decode/v1Update';
import { EventLog } from '../store/eventLog';
import { makeCore } from '../testing/coreHarness';

/** A session log in the core's data folder whose agent worked in `workspace`. */
function writeSession(dataDir: string, sessionId: string, workspace: string, bodies: SessionEventBody[]): void {
  mkdirSync(join(dataDir, 'sessions'), { recursive: true });
  const log = new EventLog(join(dataDir, 'sessions', `${sessionId}.jsonl`));
  const all: SessionEventBody[] = [
    { kind: 'session.created', agentId: 'fixture', agentName: 'Fixture', cwd: workspace },
    { kind: 'session.connected', acpSessionId: 'acp_1', how: 'new' },
    ...bodies,
  ];
  log.append(all.map((body, i) => ({ ...body, sessionId, seq: i + 1, ts: i + 1 }) as SessionEvent));
  log.close();
}

const edit = (id: string, path: string, oldText: string | null, newText: string, status = 'completed'): SessionEventBody[] => [
  decodeV1Update({ sessionUpdate: 'tool_call', toolCallId: id, title: `Edit ${path}`, kind: 'edit', status: 'in_progress' }),
  decodeV1Update({ sessionUpdate: 'tool_call_update', toolCallId: id, status, content: [{ type: 'diff', path, oldText, newText }] }),
];

describe('the Review list computed in main (issue 23)', () => {
  it('lists each changed file once with its tool calls, and gives a file its texts settled by the disk', async () => {
    const h = makeCore();
    const a = join(h.workspace, 'a.ts');
    const b = join(h.workspace, 'b.ts');
    // a.ts: two snippet edits (Copilot CLI style); the disk holds the whole file now.
    writeFileSync(a, 'const x = 1;\nHELLO\nWORLD\n');
    writeSession(h.dataDir, 's_review', h.workspace, [
      { kind: 'turn.started', turnId: 't1', prompt: [{ type: 'text', text: 'edit' }] },
      ...edit('c1', a, 'hello', 'HELLO'),
      ...edit('c2', b, null, 'new file\n'),
      ...edit('c3', a, 'world', 'WORLD'),
      ...edit('c4', b, 'nope', 'failed edit', 'failed'),
      { kind: 'turn.ended', turnId: 't1', stopReason: 'end_turn' },
    ]);
    await h.core.handlers['session.open']({ sessionId: 's_review' });

    const list = await h.core.handlers['session.review']({ sessionId: 's_review' });
    expect(list.files).toEqual([
      { path: a, created: false, deleted: false, changes: 2, source: 'diff', toolCallIds: ['c1', 'c3'] },
      { path: b, created: true, deleted: false, changes: 1, source: 'diff', toolCallIds: ['c2'] },
    ]);
    // No texts in the list: the person opens a file to see them.
    expect(JSON.stringify(list)).not.toContain('HELLO');

    const opened = await h.core.handlers['session.reviewFile']({ sessionId: 's_review', path: a });
    expect(opened.file).toMatchObject({ path: a, oldText: 'const x = 1;\nhello\nworld\n', newText: 'const x = 1;\nHELLO\nWORLD\n', needsDisk: false });
    expect((await h.core.handlers['session.reviewFile']({ sessionId: 's_review', path: b })).file).toMatchObject({ oldText: null, newText: 'new file\n' });
    expect((await h.core.handlers['session.reviewFile']({ sessionId: 's_review', path: join(h.workspace, 'other.ts') })).file).toBeNull();
    await h.dispose();
  });
});
