import { describe, expect, it } from 'vitest';
import type { SessionEvent, SessionEventBody } from '../session/events';
import { reduceSession } from '../session/reducer';
import { lineDiff } from './lineDiff';
import { exportFileName, sessionToMarkdown } from './markdown';
import { mergeHistory } from './merge';
import type { HistoryItem } from '../ipc/historyContract';
import { decodeV1Update } from '../../src-main/acp/decode/v1Update';

function fold(bodies: SessionEventBody[]) {
  return reduceSession(
    undefined,
    bodies.map((body, i) => ({ ...body, sessionId: 's1', seq: i + 1, ts: Date.UTC(2026, 0, 1) + i }) as SessionEvent),
  );
}

describe('sessionToMarkdown', () => {
  it('renders messages, tool calls with status and diffs, plans, thoughts and stop reasons', () => {
    const state = fold([
      { kind: 'session.created', agentId: 'fx', agentName: 'Fixture', cwd: '/work/app' },
      { kind: 'session.connected', acpSessionId: 'acp_1', how: 'new' },
      decodeV1Update({ sessionUpdate: 'session_info_update', title: 'Fix the build' }),
      {
        kind: 'turn.started',
        turnId: 't1',
        prompt: [
          { type: 'text', text: 'Please fix `b`.' },
          { type: 'resource_link', uri: 'file:///work/app/a.ts', name: 'a.ts' },
        ],
      },
      decodeV1Update({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'Look at a.ts' } }),
      decodeV1Update({
        sessionUpdate: 'plan',
        entries: [
          { content: 'Read', priority: 'high', status: 'completed' },
          { content: 'Edit', priority: 'low', status: 'in_progress' },
        ],
      }),
      decodeV1Update({
        sessionUpdate: 'tool_call',
        toolCallId: 'c1',
        title: 'Edit a.ts',
        kind: 'edit',
        status: 'pending',
        locations: [{ path: '/work/app/a.ts', line: 2 }],
        content: [{ type: 'diff', path: '/work/app/a.ts', oldText: 'const a = 1;\nconst b = 2;\n', newText: 'const a = 1;\nconst b = 3;\n' }],
      }),
      decodeV1Update({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed' }),
      decodeV1Update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Done:\n\n```ts\nconst b = 3;\n```' } }),
      { kind: 'turn.ended', turnId: 't1', stopReason: 'end_turn' },
      { kind: 'turn.started', turnId: 't2', prompt: [{ type: 'text', text: 'again' }] },
      { kind: 'turn.ended', turnId: 't2', stopReason: 'error', error: 'The agent exited during this turn.' },
      decodeV1Update({ sessionUpdate: 'x_future', data: 1 }),
    ]);
    const md = sessionToMarkdown(state, { exportedAt: '2026-01-02T00:00:00.000Z' });
    expect(md).toContain('# Fix the build');
    expect(md).toContain('- Agent: Fixture');
    expect(md).toContain('- Workspace: `/work/app`');
    expect(md).toContain('(agent session `acp_1`)');
    expect(md).toContain('### You\n\nPlease fix `b`.\n\n[a.ts](file:///work/app/a.ts)');
    expect(md).toContain('> **Thought:** Look at a.ts');
    expect(md).toContain('- [x] Read _(high, completed)_\n- [ ] Edit _(low, in progress)_');
    expect(md).toContain('#### Tool call: Edit a.ts — completed');
    expect(md).toContain('_kind: edit · locations: `/work/app/a.ts:2`_');
    expect(md).toContain('```diff\n--- /work/app/a.ts\n+++ /work/app/a.ts\n const a = 1;\n-const b = 2;\n+const b = 3;\n```');
    expect(md).toContain('### Fixture\n\nDone:\n\n```ts\nconst b = 3;\n```');
    expect(md).toContain('_Turn ended_');
    expect(md).toContain('_Failed: The agent exited during this turn._');
    expect(md).toContain('#### update x_future (not understood by this version)');
    expect(md).toContain('- Exported: 2026-01-02T00:00:00.000Z');
  });

  it('an ACP v2 diff (a list of changes and a git patch) is exported with its files and its patch', () => {
    const patch = 'diff --git a/w/a.txt b/w/a.txt\n--- a/w/a.txt\n+++ b/w/a.txt\n@@ -1 +1 @@\n-two\n+TWO\n';
    const state = fold([
      { kind: 'session.created', agentId: 'fx', agentName: 'F', cwd: '/w' },
      {
        kind: 'tool.updated',
        toolCallId: 'c',
        fields: {
          title: 'Edit',
          toolKind: 'edit',
          status: 'completed',
          content: [
            {
              type: 'diff',
              changes: [
                { operation: 'modify', path: '/w/a.txt' },
                { operation: 'move', oldPath: '/w/d.txt', path: '/w/e.txt' },
              ],
              patch: { format: 'git_patch', text: patch },
            },
          ],
        },
      },
    ]);
    const md = sessionToMarkdown(state);
    expect(md).toContain('- modify `/w/a.txt`\n- move `/w/e.txt` (from `/w/d.txt`)');
    expect(md).toContain(`\`\`\`diff\n${patch.replace(/\n$/, '')}\n\`\`\``);
  });

  it('fences code that itself contains fences', () => {
    const state = fold([
      { kind: 'session.created', agentId: 'fx', agentName: 'F', cwd: '/w' },
      decodeV1Update({ sessionUpdate: 'tool_call', toolCallId: 'c', title: 'T', kind: 'other', status: 'completed', rawOutput: { text: '```` four' } }),
    ]);
    expect(sessionToMarkdown(state)).toContain('`````json\n');
  });

  it('makes safe file names', () => {
    expect(exportFileName({ title: 'Fix: the/build?  now', sessionId: 's1' }, 'md')).toBe('Fix-thebuild-now.md');
    expect(exportFileName({ title: null, sessionId: 's_1' }, 'jsonl')).toBe('s_1.jsonl');
  });
});

describe('lineDiff', () => {
  it('keeps common lines and marks changes', () => {
    expect(lineDiff('a\nb\nc\n', 'a\nx\nc\nd\n').map((l) => l.op + l.text)).toEqual([' a', '-b', '+x', ' c', '+d']);
    expect(lineDiff(null, 'new\n').map((l) => l.op + l.text)).toEqual(['+new']);
  });
});

describe('mergeHistory', () => {
  const base: HistoryItem = {
    sessionId: 's1',
    agentId: 'fx',
    agentName: 'F',
    cwd: '/w',
    title: null,
    acpSessionId: 'acp_1',
    lastActivity: 10,
    messageCount: 2,
    origin: 'local',
    open: false,
    readonly: false,
  };
  it('merges an agent-listed session into the local one bound to the same ACP id', () => {
    const listed: HistoryItem[] = [
      { ...base, sessionId: null, title: 'From agent', lastActivity: 50, messageCount: null, origin: 'agent' },
      { ...base, sessionId: null, acpSessionId: 'acp_2', title: 'Only on agent', lastActivity: 20, messageCount: null, origin: 'agent' },
      { ...base, agentId: 'other', sessionId: null, title: 'Other agent, same id', lastActivity: 5, origin: 'agent' },
    ];
    const merged = mergeHistory([base], listed);
    expect(merged.map((i) => [i.sessionId, i.acpSessionId, i.origin, i.title])).toEqual([
      ['s1', 'acp_1', 'both', 'From agent'],
      [null, 'acp_2', 'agent', 'Only on agent'],
      [null, 'acp_1', 'agent', 'Other agent, same id'],
    ]);
    expect(merged[0].lastActivity).toBe(50);
  });
});
