import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHost } from './fixtures/host';
import { expect, FIXTURE, openApp, seedSession, send, shot, startSession, test, transcript, waitIdle } from './ui-support';

test.describe('3 · tool calls and 4 · diffs', () => {
  test('cards: kind, title, status, locations open a read-only file view, content, raw output; Monaco diff with inline toggle; review view', async ({
    page,
    host,
    problems,
  }) => {
    writeFileSync(join(host.workspace, 'README.md'), Array.from({ length: 40 }, (_, i) => `line ${i + 1} of the readme`).join('\n'));
    await openApp(page, host);
    await startSession(page, 'Fixture Agent', host.workspace);
    await send(page, 'tools');
    await waitIdle(page);
    const log = transcript(page);

    const read = log.getByRole('article', { name: 'Tool call: Read README.md' });
    await expect(read.getByRole('img', { name: 'Read' })).toBeVisible();
    await expect(read.getByRole('status', { name: 'Status: Done' })).toBeVisible();
    await expect(read.getByText('README contents')).toBeVisible();

    const failed = log.getByRole('article', { name: 'Tool call: Fetch a page' });
    await expect(failed.getByRole('status', { name: 'Status: Failed' })).toBeVisible();
    const rawOutput = failed.getByRole('button', { name: 'Raw output' });
    await expect(rawOutput).toHaveAttribute('aria-expanded', 'false');
    await rawOutput.click();
    await expect(failed.getByLabel('Raw output')).toContainText('"error": "timeout"');

    // A new file as a Monaco diff (computed by the bundled editor worker).
    const created = log.getByRole('article', { name: 'Tool call: Create notes.md' });
    const diff = created.getByRole('group', { name: /Diff of .*notes\.md/ });
    await expect(diff.getByText('new file', { exact: true })).toBeVisible();
    // A transcript row shows the changed lines as plain text until the person opens the editor.
    await expect(diff.getByLabel('Changed lines')).toContainText('New file.');
    await expect(diff.locator('.monaco-editor')).toHaveCount(0);
    await diff.getByRole('button', { name: 'Open in editor' }).click();
    // A new file has one side only: every line marked added, no layout toggle (edits toggle: see the next test).
    await expect(diff.locator('.monaco-editor .one-sided-added').first()).toBeVisible();
    await expect(diff.locator('.monaco-editor .view-lines')).toContainText('New file.');
    await expect(diff.getByLabel(/3 lines added, 0 removed/)).toBeVisible();
    await expect(diff.getByRole('button', { name: 'Inline' })).toHaveCount(0);
    await shot(page, 'tool-card-with-diff');

    // The review view in the side panel lists the changed file with its diff.
    const panel = page.getByRole('complementary', { name: 'Side panel' });
    await panel.getByRole('tab', { name: 'Review' }).click();
    await expect(panel.getByRole('list', { name: 'Changed files' }).getByRole('button')).toHaveCount(1);
    await expect(panel.getByRole('button', { name: /notes\.md/ })).toBeVisible();
    await expect(panel.getByRole('group', { name: /Diff of .*notes\.md/ }).locator('.monaco-editor .view-lines')).toContainText('# Notes');

    // A location opens the file, read-only, at its line.
    await read.getByRole('button', { name: /README\.md:1/ }).click();
    const file = panel.getByRole('region', { name: /File .*README\.md/ });
    await expect(file.getByText(/Read-only · 40 lines · line 1/)).toBeVisible();
    await expect(file.locator('.monaco-editor .view-lines')).toContainText('line 1 of the readme');
    await shot(page, 'file-view');
    expect(problems).toEqual([]);
  });

  test('edits, new files and deletions in the review view; a 20,000-line diff stays responsive (Monaco renders only what is visible)', async ({
    page,
    problems,
  }) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'acp-e2e-diff-'));
    const workspace = mkdtempSync(join(tmpdir(), 'acp-e2e-ws-'));
    const big = Array.from({ length: 20_000 }, (_, i) => `const value${i} = ${i};`);
    const bigNew = big.map((line, i) => (i % 1000 === 500 ? line.replace('= ', '= 1 + ') : line));
    const tool = (toolCallId: string, title: string, content: unknown[]) => ({
      kind: 'acp.update',
      update: { sessionUpdate: 'tool_call', toolCallId, title, kind: 'edit', status: 'completed', content },
    });
    seedSession(dataDir, 's_diffs', workspace, [
      { kind: 'turn.started', turnId: 't1', prompt: [{ type: 'text', text: 'change things' }] },
      tool('e1', 'Edit big.ts', [{ type: 'diff', path: join(workspace, 'big.ts'), oldText: big.join('\n'), newText: bigNew.join('\n') }]),
      tool('e2', 'Delete old.ts', [{ type: 'diff', path: join(workspace, 'old.ts'), oldText: 'export const old = 1;\n', newText: '', deleted: true }]),
      tool('e3', 'Create fresh.ts', [{ type: 'diff', path: join(workspace, 'fresh.ts'), oldText: null, newText: 'export const fresh = 2;\n' }]),
      {
        kind: 'acp.update',
        update: {
          sessionUpdate: 'tool_call',
          toolCallId: 'r1',
          title: 'Read /etc/hostname',
          kind: 'read',
          status: 'completed',
          locations: [{ path: '/etc/hostname', line: 1 }],
        },
      },
      { kind: 'file.written', path: join(workspace, 'written.txt'), oldText: 'before\n', newText: 'after\n' },
      { kind: 'turn.ended', turnId: 't1', stopReason: 'end_turn' },
    ]);
    const host = await startHost({ dataDir, workspace, settings: { agents: [FIXTURE] } });
    try {
      await page.goto(host.url);
      const panel = page.getByRole('complementary', { name: 'Side panel' });
      await panel.getByRole('tab', { name: 'Review' }).click();
      const files = panel.getByRole('list', { name: 'Changed files' }).getByRole('button');
      await expect(files).toHaveCount(4);
      await expect(panel.getByRole('button', { name: /old\.ts.*deleted/ })).toBeVisible();
      await expect(panel.getByRole('button', { name: /fresh\.ts.*new/ })).toBeVisible();

      // The big edit: 20 changed lines, unchanged regions folded, few lines in the DOM.
      const started = Date.now();
      await panel.getByRole('button', { name: /big\.ts/ }).click();
      const bigDiff = panel.getByRole('group', { name: /Diff of .*big\.ts/ });
      await expect(bigDiff.getByLabel('20 lines added, 20 removed')).toBeVisible({ timeout: 20_000 });
      console.log(`20,000-line diff computed and shown in ${Date.now() - started} ms`);
      const lines = await bigDiff.locator('.view-line').count();
      console.log(`Monaco view lines in the DOM for the 20,000-line diff: ${lines}`);
      expect(lines).toBeLessThan(400);
      // Still responsive: switching the layout re-renders at once, both ways.
      await expect(bigDiff.locator('.monaco-diff-editor.side-by-side')).toHaveCount(1);
      await bigDiff.getByRole('button', { name: 'Inline' }).click();
      await expect(bigDiff.locator('.monaco-diff-editor.side-by-side')).toHaveCount(0);
      await bigDiff.getByRole('button', { name: 'Side by side' }).click();
      await expect(bigDiff.locator('.monaco-diff-editor.side-by-side')).toHaveCount(1);

      await panel.getByRole('button', { name: /old\.ts/ }).click();
      const deletedDiff = panel.getByRole('group', { name: /Diff of .*old\.ts/ });
      await expect(deletedDiff.getByText('deleted', { exact: true })).toBeVisible();
      await expect(deletedDiff.getByLabel('0 lines added, 1 removed')).toBeVisible();
      await expect(deletedDiff.locator('.one-sided-removed').first()).toBeVisible();
      await panel.getByRole('button', { name: /written\.txt/ }).click();
      await expect(panel.getByRole('group', { name: /Diff of .*written\.txt/ }).getByLabel('1 lines added, 1 removed')).toBeVisible();
      await shot(page, 'review-view');
      // The file view reads only inside the session's workspace folders.
      await page
        .getByRole('article', { name: 'Tool call: Read /etc/hostname' })
        .getByRole('button', { name: /\/etc\/hostname:1/ })
        .click();
      await expect(panel.getByRole('region', { name: 'File /etc/hostname' }).getByRole('alert')).toContainText("outside this session's workspace folders");
      expect(problems).toEqual([]);
    } finally {
      await page.close();
      await host.stop();
    }
  });

  test('a terminal in a tool card and the side panel: ANSI colours, exit status, output kept after release', async ({ page, host }) => {
    await openApp(page, host);
    await startSession(page, 'Fixture Agent', host.workspace);
    // Long enough (about 3 s) that the running state is on screen even when the machine is busy.
    await send(page, 'terminal printf "\\033[32mgreen\\033[0m line\\n"; for i in 1 2 3 4 5 6; do echo step $i; sleep 0.5; done');
    const card = transcript(page).getByRole('article', { name: /Tool call: Run printf/ });
    const terminal = card.getByRole('region', { name: /Terminal: sh -c/ });
    await expect(terminal.getByRole('status')).toHaveText('Running');
    await expect(terminal.locator('.xterm-rows')).toContainText('step 1');
    await shot(page, 'running-terminal');
    await waitIdle(page);
    await expect(terminal.getByRole('status')).toHaveText('Exited with code 0 · released');
    await expect(terminal.locator('.xterm-rows')).toContainText('green line');
    await expect(terminal.locator('.xterm-rows')).toContainText('step 3');
    // ANSI green became a coloured span, not escape codes.
    await expect(terminal.locator('.xterm-rows span.xterm-fg-2')).toHaveText('green');
    await expect(terminal.locator('.xterm-rows')).not.toContainText('[32m');
    const panel = page.getByRole('complementary', { name: 'Side panel' });
    await panel.getByRole('tab', { name: 'Terminals' }).click();
    await expect(panel.getByRole('region', { name: /Terminal: sh -c/ }).locator('.xterm-rows')).toContainText('step 3');
  });
});
