import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureAgent, shot, startHost, type RunningHost } from './fixtures/host';
import { expect, openApp, send, startSession, test, transcript, waitIdle } from './ui-support';

/** Issue 13: the fixture agent speaks each real agent's exact wire shapes; the cards must read right. */
test.describe("real agents' shapes", () => {
  test('Claude Code: a command line without args runs in the shell and its card shows the output; a failing one says Failed, not Done; tool text is Markdown that keeps its lines', async ({
    page,
    host,
    problems,
  }) => {
    writeFileSync(join(host.workspace, 'hello.txt'), 'hello\n');
    await openApp(page, host);
    await startSession(page, 'Fixture Agent', host.workspace);
    await send(page, 'claudeshell echo shell-ok > out.txt && cat hello.txt out.txt');
    await waitIdle(page);
    const log = transcript(page);
    const ok = log.getByRole('article', { name: 'Tool call: `echo shell-ok > out.txt && cat hello.txt out.txt`' });
    await expect(ok.getByRole('status', { name: 'Status: Done' })).toBeVisible();
    const term = ok.getByRole('region', { name: /^Terminal: echo shell-ok/ });
    await expect(term.getByRole('status')).toHaveText(/Exited with code 0/);
    await expect(term.locator('.xterm-rows')).toContainText('shell-ok');
    await expect(term.locator('.xterm-rows')).not.toContainText('execvp');

    await send(page, 'claudeshell echo about-to-fail && exit 3');
    await waitIdle(page);
    const bad = log.getByRole('article', { name: 'Tool call: `echo about-to-fail && exit 3`' });
    await expect(bad.getByRole('status', { name: 'Status: Failed (exit code 3)' })).toBeVisible();
    await expect(bad.getByText('Done', { exact: true })).toHaveCount(0);

    await send(page, 'claudemarkdown');
    await waitIdle(page);
    const md = log.getByRole('article', { name: 'Tool call: Read notes' });
    await expect(md.locator('pre code')).toHaveText('markdown-fenced output');
    await expect(md.getByText('```console')).toHaveCount(0);
    // Plain tool text keeps its lines (Qwen's shell result): Markdown must not join them into one.
    await send(page, 'qwenshell');
    await waitIdle(page);
    const qwen = log.getByRole('article', { name: 'Tool call: Shell: echo shell-ok && cat hello.txt' }).getByLabel('Tool output');
    expect(await qwen.innerText()).toContain('Output: shell-ok\nHELLO\nError: (none)\nExit Code: 0');
    await bad.scrollIntoViewIfNeeded();
    await shot(page, 'quirks-claude-shell');
    expect(problems).toEqual([]);
  });

  test("Codex: an agent-side terminal's streamed output and exit code show in the xterm view, and output only in rawOutput too", async ({
    page,
    host,
    problems,
  }) => {
    await openApp(page, host);
    await startSession(page, 'Fixture Agent', host.workspace);
    await send(page, 'codexterm 2');
    await waitIdle(page);
    const card = transcript(page).getByRole('article', { name: 'Tool call: Run echo codex-out' });
    await expect(card.getByText(/not run by this app/)).toHaveCount(0);
    const term = card.getByRole('region', { name: 'Terminal: echo codex-out' });
    await expect(term.locator('.xterm-rows')).toContainText('codex-out line 1');
    await expect(term.locator('.xterm-rows')).toContainText('codex green');
    await expect(term.getByRole('status')).toHaveText(/Exited with code 2/);
    // Codex 0.16: the output only in the completed update's rawOutput shows in a terminal on the card.
    await send(page, 'codexrawout 0');
    await waitIdle(page);
    const raw = transcript(page).getByRole('article', { name: 'Tool call: Read hello.txt' });
    const rawTerm = raw.getByRole('region', { name: 'Terminal: echo shell-ok && cat hello.txt' });
    await expect(rawTerm.locator('.xterm-rows')).toContainText('shell-ok');
    await expect(rawTerm.locator('.xterm-rows')).toContainText('HELLO');
    await expect(rawTerm.getByRole('status')).toHaveText(/Exited with code 0/);
    await shot(page, 'quirks-codex-terminal');
    expect(problems).toEqual([]);
  });
});

test.describe('Gemini and sign-in', () => {
  let gemini: RunningHost;
  test.beforeAll(async () => {
    gemini = await startHost({
      settings: {
        agents: [fixtureAgent('gemini', 'Gemini CLI', ['--delay', '0', '--auth', '--gemini-auth']), fixtureAgent('fixture', 'Fixture Agent', ['--delay', '0'])],
      },
    });
  });
  test.afterAll(async () => gemini.stop());

  test("Gemini: the key method asks for GEMINI_API_KEY as a secret; each failed sign-in shows the agent's reason; thoughts lose the **** marker", async ({
    page,
    problems,
  }) => {
    await page.goto(gemini.url);
    await page.getByRole('button', { name: 'New session with Gemini CLI' }).click();
    const dialog = page.getByRole('dialog', { name: 'New session' });
    await dialog.getByLabel('Workspace folder').fill(gemini.workspace);
    await dialog.getByRole('button', { name: 'Start' }).click();
    await expect(page.getByLabel('Session status')).toHaveText('Waiting for you');
    const panel = page.getByRole('region', { name: 'Sign in to Gemini CLI' });
    await panel.getByRole('button', { name: 'Log in with Google' }).click();
    await expect(panel.getByRole('alert')).toContainText(
      /^Sign-in with “Log in with Google” failed: .*Login with Google is not available in this environment\./,
    );
    await panel.getByRole('button', { name: 'Use Gemini API key' }).click();
    const form = panel.getByRole('form', { name: 'Use Gemini API key' });
    const key = form.getByLabel('Use Gemini API key');
    await expect(key).toHaveAttribute('type', 'password');
    await key.fill('bad-key');
    await form.getByRole('button', { name: 'Save and sign in' }).click();
    await expect(panel.getByRole('alert')).toContainText('API key not valid');
    await shot(page, 'quirks-gemini-key-failed');
    await key.fill('good-key');
    await form.getByRole('button', { name: 'Save and sign in' }).click();
    await expect(panel).toBeHidden();
    await expect(page.getByLabel('Session status')).toHaveText('Idle');
    await send(page, 'geminithought');
    await waitIdle(page);
    const thought = transcript(page).locator('.entry.thought');
    await expect(thought).toContainText('Planning the change.');
    await expect(thought).not.toContainText('****');
    expect(problems.filter((p) => !/auth\.start|API key not valid|Login with Google/.test(p))).toEqual([]);
  });

  test('a sign-in asked for at the first prompt reads "Sign in to continue", not an error', async ({ page, problems }) => {
    await page.goto(gemini.url);
    await startSession(page, 'Fixture Agent', gemini.workspace);
    await send(page, 'needsignin');
    await expect(page.getByLabel('Session status')).toHaveText('Waiting for you');
    const log = transcript(page);
    await expect(log.getByRole('status').filter({ hasText: 'Sign in to continue' })).toBeVisible();
    await expect(log.getByRole('alert')).toHaveCount(0);
    await shot(page, 'quirks-sign-in-step');
    await page.getByRole('region', { name: 'Sign in to Fixture Agent' }).getByRole('button', { name: 'Log in with Fixture' }).click();
    await expect(log.getByText('Signed in and answered.')).toBeVisible();
    expect(problems).toEqual([]);
  });
});

test.describe('the Review panel agrees with the disk', () => {
  test('Copilot/OpenCode snippet diffs are hunks of the file; Qwen’s new file counts once, as new', async ({ page, host, problems }) => {
    writeFileSync(join(host.workspace, 'hello.txt'), 'say hello\nand goodbye\n');
    await openApp(page, host);
    await startSession(page, 'Fixture Agent', host.workspace);
    test.setTimeout(120_000);
    await send(page, 'snippetedit');
    await expect(transcript(page).getByText('Edited with a snippet diff.')).toBeVisible();
    await waitIdle(page);
    await send(page, 'qwennew');
    await expect(transcript(page).getByText('Created the file.')).toBeVisible();
    const panel = page.getByRole('complementary', { name: 'Side panel' });
    await panel.getByRole('tab', { name: 'Review' }).click();
    const files = panel.getByRole('list', { name: 'Changed files' });
    await expect(files.getByRole('button')).toHaveCount(2);
    const qwen = files.getByRole('button', { name: /qwen-new\.md/ });
    await expect(qwen).toContainText('new');
    await expect(qwen).not.toContainText('change');
    const hello = files.getByRole('button', { name: /hello\.txt/ });
    await expect(hello).toContainText('1 change');
    await hello.click();
    const diff = panel.getByRole('group', { name: /Diff of .*hello\.txt/ });
    // The whole file, as on disk: the unchanged line is there, and one line changed.
    await expect(diff.locator('.monaco-editor .view-lines').last()).toContainText('and goodbye');
    await expect(diff.locator('.monaco-editor .view-lines').last()).toContainText('say HELLO');
    await expect(diff.getByLabel(/^1 lines? added, 1 removed/)).toBeVisible();
    await shot(page, 'quirks-review-snippet');
    await qwen.click();
    const created = panel.getByRole('group', { name: /Diff of .*qwen-new\.md/ });
    await expect(created.getByText('new file', { exact: true }).first()).toBeVisible();
    await expect(created.getByLabel(/^2 lines added, 0 removed/)).toBeVisible();
    expect(problems).toEqual([]);
  });
});
