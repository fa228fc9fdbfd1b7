import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionEvent, SessionEventBody } from '../src-shared/session/events';
import { v2 } from '../src-main/acp/dialects/v2';
import { expect, fixtureAgent, leavePage, openApp, type RunningHost, shot, startHost, test } from './fixtures/host';

// ACP v2 content rendered from recorded events: a session log written the way the
// session layer writes it (wire updates decoded by the v2 dialect), opened in the browser host.

const hosts: RunningHost[] = [];
test.afterEach(async ({ page }) => {
  await leavePage(page);
  await Promise.all(hosts.splice(0).map((host) => host.stop()));
});

const GIT_PATCH = [
  'diff --git a/w/a.txt b/w/a.txt',
  '--- a/w/a.txt',
  '+++ b/w/a.txt',
  '@@ -1,3 +1,3 @@',
  ' one',
  '-two',
  '+TWO',
  ' three',
  'diff --git a/w/b.txt b/w/b.txt',
  'new file mode 100644',
  '--- /dev/null',
  '+++ b/w/b.txt',
  '@@ -0,0 +1,2 @@',
  '+hello',
  '+world',
  'diff --git a/w/c.txt b/w/c.txt',
  'deleted file mode 100644',
  '--- a/w/c.txt',
  '+++ /dev/null',
  '@@ -1 +0,0 @@',
  '-gone',
  '',
].join('\n');

function recordedSession(sessionId: string): SessionEvent[] {
  const decoder = v2.createDecoder();
  const wire = (update: Record<string, unknown>) => decoder.decode('acp-v2', update);
  const bodies: SessionEventBody[] = [
    { kind: 'session.created', agentId: 'fixture', agentName: 'Fixture Agent', cwd: '/w' },
    { kind: 'session.connected', acpSessionId: 'acp-v2', how: 'new', protocolVersion: 2 },
    { kind: 'turn.started', turnId: 't1', prompt: [{ type: 'text', text: 'Edit the files and watch' }] },
    ...wire({ sessionUpdate: 'state_update', state: 'running' }),
    ...wire({ sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: { type: 'text', text: 'Editing three files.' } }),
    ...wire({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'tc-1',
      title: 'Edit three files',
      kind: 'edit',
      status: 'completed',
      content: [
        {
          type: 'diff',
          changes: [
            { operation: 'modify', path: '/w/a.txt' },
            { operation: 'add', path: '/w/b.txt' },
            { operation: 'delete', path: '/w/c.txt' },
            { operation: 'move', oldPath: '/w/d.txt', path: '/w/e.txt' },
            { operation: '_x_touch', path: '/w/f.txt' },
          ],
          patch: { format: 'git_patch', text: GIT_PATCH },
        },
      ],
    }),
    ...wire({ sessionUpdate: 'terminal_update', terminalId: 'term-1', command: 'npm run watch', cwd: '/w', capabilities: { cancel: {} } }),
    ...wire({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'tc-t',
      title: 'Watch',
      kind: 'execute',
      status: 'in_progress',
      content: [{ type: 'terminal', terminalId: 'term-1' }],
    }),
    ...wire({ sessionUpdate: 'terminal_output_chunk', terminalId: 'term-1', data: Buffer.from('watching… ✓\r\n\x1b[32mgreen\x1b[0m\r\n').toString('base64') }),
    // The watch keeps running past the turn: the agent lists it as background work.
    ...wire({
      sessionUpdate: 'state_update',
      state: 'idle',
      stopReason: 'end_turn',
      background: [
        { type: 'tool_call', toolCallId: 'tc-t' },
        { type: 'terminal', terminalId: 'term-1' },
      ],
    }),
  ];
  return bodies.map((body, i) => ({ ...body, sessionId, seq: i + 1, ts: Date.now() }) as SessionEvent);
}

test('a v2 diff with several changes, its git patch and an agent terminal render from a recorded session', async ({ page }) => {
  test.setTimeout(180_000); // Monaco and xterm both load here; measured 2.1 min at load average 25 on 2 cores
  const dataDir = mkdtempSync(join(tmpdir(), 'acp-e2e-v2-'));
  const sessionId = 'v2-recorded';
  mkdirSync(join(dataDir, 'sessions'), { recursive: true });
  writeFileSync(
    join(dataDir, 'sessions', `${sessionId}.jsonl`),
    recordedSession(sessionId)
      .map((e) => JSON.stringify(e))
      .join('\n') + '\n',
  );
  writeFileSync(join(dataDir, 'sessions', 'tabs.json'), JSON.stringify({ open: [sessionId], active: sessionId }));
  const host = await startHost({ dataDir, settings: { agents: [fixtureAgent('fixture', 'Fixture Agent')] } });
  hosts.push(host);
  await openApp(page, host);

  const card = page.getByRole('article', { name: 'Tool call: Edit three files' });
  await expect(card).toBeVisible();
  const files = card.getByRole('list', { name: 'Changed files' }).getByRole('listitem');
  await expect(files).toHaveText(['Modified /w/a.txt', 'Added /w/b.txt', 'Deleted /w/c.txt', 'Moved /w/d.txt → /w/e.txt', '_x_touch /w/f.txt']);
  // One Monaco diff per change the patch has text for (the move has none); the unknown operation shown raw.
  for (const path of ['/w/a.txt', '/w/b.txt', '/w/c.txt']) await expect(card.getByRole('group', { name: `Diff of ${path}` })).toBeVisible();
  await expect(card.getByRole('group', { name: /^Diff of / })).toHaveCount(3);
  await expect(card.getByRole('group', { name: 'Unknown: file change _x_touch' })).toBeVisible();
  // By keyboard: while Monaco lays the diffs out the button moves, and a click waits for it to settle.
  await card.getByRole('button', { name: 'Git patch' }).press('Enter');
  const patch = card.getByLabel('Patch text');
  await expect(patch).toContainText('+TWO');
  await expect(patch).toContainText('deleted file mode 100644');

  const modified = card.getByRole('group', { name: 'Diff of /w/a.txt' });
  await modified.scrollIntoViewIfNeeded();
  // Rows show plain changed lines until the person opens the editor.
  await modified.getByRole('button', { name: 'Open in editor' }).click();
  // a.txt has both sides (a Monaco diff editor); the new and the deleted file have one each.
  await expect(modified.locator('.monaco-diff-editor')).toHaveCount(1);
  await expect(modified.getByText('TWO', { exact: true }).first()).toBeVisible();

  const watch = page.getByRole('article', { name: 'Tool call: Watch' });
  const terminal = watch.getByRole('region', { name: 'Terminal: npm run watch' });
  await terminal.scrollIntoViewIfNeeded();
  await expect(terminal.locator('.xterm-rows')).toContainText('watching… ✓');
  await expect(terminal.locator('.xterm-rows')).toContainText('green');
  await expect(watch.getByRole('button', { name: 'Cancel', exact: true })).toBeVisible();
  // Background work is not settled by the turn's end.
  await expect(watch.getByRole('status', { name: 'Status: Running' })).toBeVisible();
  await shot(page, 'v2-diff-patch-terminal');
});
