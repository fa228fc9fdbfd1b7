import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
// The host fixtures' `test` fails any test on an unexpected console or page error (the
// deliberate ones — a dead socket while the host restarts — are allowed there).
import { expect, fixtureAgent, leavePage, openApp as open, type RunningHost, send, shot, startHost, test, withAgentProtocol } from './fixtures/host';

// Failure paths, tried through the UI the way a demanding user would: crashes, agents that
// do not start, garbage on stdout, closing tabs mid-turn, writes outside the workspace,
// two tabs on one agent, and the host going away while the person types.

const transcript = (page: Page) => page.getByRole('log', { name: 'Transcript' });
const status = (page: Page) => page.getByLabel('Session status');

/** Writes a working settings.json while the app runs, retries from the failed session, and checks it answers. */
async function fixSettingsAndRetry(page: Page, host: RunningHost) {
  writeFileSync(join(host.dataDir, 'settings.json'), JSON.stringify(withAgentProtocol({ agents: [fixtureAgent()] }), null, 2));
  await page
    .getByRole('button', { name: /Restart agent|Retry|Try again/ })
    .first()
    .click();
  await expect(status(page)).toHaveText('Idle');
  await send(page, 'fixed');
  await expect(transcript(page)).toContainText('Echo: fixed');
}

async function newSession(page: Page, agentName: string, workspace: string) {
  await page.getByRole('button', { name: `New session with ${agentName}` }).click();
  const dialog = page.getByRole('dialog', { name: 'New session' });
  await dialog.getByLabel('Workspace folder').fill(workspace);
  await dialog.getByRole('button', { name: 'Start' }).click();
  await expect(dialog).toBeHidden();
}

let host: RunningHost | undefined;
test.afterEach(async ({ page }) => {
  await leavePage(page);
  await host?.stop();
  host = undefined;
});

test('1. the agent crashes mid-turn: what streamed stays, exit code and stderr shown, restart answers in the same tab', async ({ page }) => {
  host = await startHost({ settings: { agents: [fixtureAgent()] } });
  await open(page, host);
  await newSession(page, 'Fixture Agent', host.workspace);
  await expect(status(page)).toHaveText('Idle');
  await send(page, 'hello before');
  await expect(status(page)).toHaveText('Idle');
  await send(page, 'crash');
  const alert = transcript(page).getByRole('alert').filter({ hasText: 'The agent exited with code 3' });
  await expect(alert).toContainText('simulated crash');
  // The excerpt says where the whole of the agent's stderr is.
  await expect(alert).toContainText(/The agent's full log: \S+\/logs\/agents\/fixture\.log/);
  await expect(transcript(page)).toContainText('About to crash...');
  await expect(transcript(page)).toContainText('hello before');
  await expect(status(page)).not.toHaveText('Idle');
  await shot(page, 'failures-crash');
  await page.getByRole('button', { name: 'Restart agent' }).click();
  await expect(status(page)).toHaveText('Idle');
  await send(page, 'after restart');
  await expect(transcript(page)).toContainText('Echo: after restart');
  await expect(status(page)).toHaveText('Idle');
  await expect(page.getByRole('tab')).toHaveCount(1);
  await shot(page, 'failures-crash-restarted');
});

// @once: the agent never starts, so no protocol is spoken.
test(
  '2. an agent that cannot start: the reason shows in the session and sidebar; fixing settings.json and retrying works',
  { tag: '@once' },
  async ({ page }) => {
    host = await startHost({
      // No short initialize limit: the retry below must not race Node's start-up on a busy machine.
      settings: { agents: [fixtureAgent('fixture', 'Fixture Agent', ['--crash-on-start'])] },
    });
    await open(page, host);
    await newSession(page, 'Fixture Agent', host.workspace);
    await expect(page.getByRole('main')).toContainText('crashing on start as asked');
    await expect(page.getByRole('navigation', { name: 'Agents and sessions' })).toContainText('Fixture Agent failed to start');
    await shot(page, 'failures-start-crash');
    // Fix the file on disk and try again, without restarting the app.
    await fixSettingsAndRetry(page, host);
  },
);

for (const [label, agent, reason] of [
  [
    'a missing command',
    { id: 'fixture', name: 'Fixture Agent', command: '/nonexistent/agent-binary', args: [] },
    /nonexistent\/agent-binary|ENOENT|not found/i,
  ],
  ['protocol 99', fixtureAgent('fixture', 'Fixture Agent', ['--protocol', '99']), /protocol/i],
  ['a slow initialize', fixtureAgent('fixture', 'Fixture Agent', ['--slow-init', '20000']), /did not answer initialize within 4\.5 s/],
] as const) {
  // A missing command speaks no protocol: once (@once).
  test(`2. start failure: ${label}`, label === 'a missing command' ? { tag: '@once' } : {}, async ({ page }) => {
    // Only the slow-initialize case needs a short limit; the others must not race Node's start-up on a busy machine.
    // 4.5 s, not less: the retry after the fix starts a fixture under the same limit (loading the SDK took 2-4 s at load average 13).
    host = await startHost({ settings: { agents: [agent] }, env: { ACP_DESKTOP_INIT_TIMEOUT_MS: label === 'a slow initialize' ? '4500' : '15000' } });
    await open(page, host);
    await newSession(page, 'Fixture Agent', host.workspace);
    await expect(page.getByRole('main')).toContainText(reason);
    await expect(page.getByRole('navigation', { name: 'Agents and sessions' })).toContainText('Fixture Agent failed to start');
    await shot(page, `failures-start-${label.replace(/\W+/g, '-')}`);
    await fixSettingsAndRetry(page, host);
  });
}

test('3. garbage on stdout and a failed turn are shown; the next turn works', async ({ page }) => {
  host = await startHost({ settings: { agents: [fixtureAgent()] } });
  await open(page, host);
  await newSession(page, 'Fixture Agent', host.workspace);
  await expect(status(page)).toHaveText('Idle');
  await send(page, 'garbage');
  await expect(transcript(page)).toContainText('Printed garbage.');
  await expect(transcript(page)).toContainText('not ACP on stdout (ignored): this is not json, just a log line');
  await expect(status(page)).toHaveText('Idle');
  await send(page, 'fail');
  await expect(transcript(page)).toContainText('The fixture failed on purpose');
  // A failed turn says so in the status; the agent itself is fine, so no restart is offered.
  await expect(status(page)).toHaveText('Error');
  await expect(page.getByRole('button', { name: /Restart agent|Retry/ })).toHaveCount(0);
  await send(page, 'next one');
  await expect(transcript(page)).toContainText('Echo: next one');
  await shot(page, 'failures-garbage-fail');
});

// @v1: writes go through the client's fs/write_text_file, which ACP v2 does not have.
test('5. a write outside the workspace asks with the full path; refuse errors, allow writes; deny refuses without asking', { tag: '@v1' }, async ({ page }) => {
  host = await startHost({ settings: { agents: [fixtureAgent()] } });
  const outside = join(mkdtempSync(join(tmpdir(), 'acp-e2e-outside-')), 'somewhere-else.txt');
  await open(page, host);
  await newSession(page, 'Fixture Agent', host.workspace);
  await expect(status(page)).toHaveText('Idle');
  await send(page, `write ${outside}`);
  await expect(transcript(page)).toContainText(outside);
  await transcript(page).getByRole('button', { name: 'Refuse' }).click();
  await expect(transcript(page)).toContainText('Write failed');
  await expect(status(page)).toHaveText('Idle');
  expect(existsSync(outside)).toBe(false);
  await send(page, `write ${outside}`);
  await transcript(page).getByRole('button', { name: 'Allow this write' }).click();
  await expect(transcript(page)).toContainText(`Wrote ${outside}.`);
  expect(readFileSync(outside, 'utf8')).toBe('written by the fixture\n');
});

test('5. with outsideWorkspace deny, a write outside is refused without asking', { tag: '@v1' }, async ({ page }) => {
  host = await startHost({ settings: { agents: [fixtureAgent()], outsideWorkspace: 'deny' } });
  const outside = join(mkdtempSync(join(tmpdir(), 'acp-e2e-outside-')), 'denied.txt');
  await open(page, host);
  await newSession(page, 'Fixture Agent', host.workspace);
  await expect(status(page)).toHaveText('Idle');
  await send(page, `write ${outside}`);
  await expect(transcript(page)).toContainText('Write failed');
  await expect(transcript(page).getByRole('button', { name: 'Refuse' })).toHaveCount(0);
  expect(existsSync(outside)).toBe(false);
});

test('6. two tabs on one agent: a crash shows in both, restart reconnects both', async ({ page }) => {
  host = await startHost({ settings: { agents: [fixtureAgent()] } });
  await open(page, host);
  await newSession(page, 'Fixture Agent', host.workspace);
  await expect(status(page)).toHaveText('Idle');
  await newSession(page, 'Fixture Agent', host.workspace);
  await expect(status(page)).toHaveText('Idle');
  await expect(page.getByRole('tab')).toHaveCount(2);
  await send(page, 'crash');
  await expect(transcript(page)).toContainText('The agent exited with code 3');
  await page.getByRole('tab').first().click();
  await expect(status(page)).toHaveText('Agent stopped');
  await expect(transcript(page)).toContainText('The agent exited with code 3');
  await expect(page.getByRole('button', { name: 'Restart agent' })).toBeVisible();
  await page.getByRole('button', { name: 'Restart agent' }).click();
  await expect(status(page)).toHaveText('Idle');
  await send(page, 'first tab');
  await expect(transcript(page)).toContainText('Echo: first tab');
  await page.getByRole('tab').nth(1).click();
  await expect(status(page)).toHaveText('Idle');
  await send(page, 'second tab');
  await expect(transcript(page)).toContainText('Echo: second tab');
});

// @once: the window and the host, not the agent protocol.
test('7. the host restarts while the person types: the UI reconnects and the draft stays', { tag: '@once' }, async ({ page }) => {
  host = await startHost({ settings: { agents: [fixtureAgent()] } });
  await open(page, host);
  await newSession(page, 'Fixture Agent', host.workspace);
  await expect(status(page)).toHaveText('Idle');
  const port = Number(new URL(host.url).port);
  const { dataDir, workspace } = host;
  await host.stop();
  await expect(page.getByText('Connection lost; reconnecting…')).toBeVisible();
  // Send while the host is down: nothing hangs and the text comes back to the composer.
  await send(page, 'sent while offline');
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveText('sent while offline');
  await page.getByRole('textbox', { name: 'Message' }).fill('typed while offline');
  host = await startHost({ dataDir, workspace, port });
  await expect(page.getByText('Connection lost; reconnecting…')).toBeHidden({ timeout: 20_000 });
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveText('typed while offline');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(transcript(page)).toContainText('Echo: typed while offline', { timeout: 15_000 });
});

for (const [label, prompt, waitFor] of [
  ['a permission is pending', 'permission', 'permission'],
  ['a turn streams', 'slow', 'chunk 3'],
] as const) {
  test(`4. closing a tab while ${label}: the agent gets cancelled, nothing hangs, history reopens it`, async ({ page }) => {
    host = await startHost({ settings: { agents: [fixtureAgent()] } });
    await open(page, host);
    await newSession(page, 'Fixture Agent', host.workspace);
    await expect(status(page)).toHaveText('Idle');
    await send(page, 'remember the okapi');
    await expect(transcript(page)).toContainText('Echo: remember the okapi');
    await send(page, prompt);
    if (waitFor === 'permission') await expect(transcript(page).getByRole('button', { name: /Allow/ }).first()).toBeVisible();
    else await expect(transcript(page)).toContainText(waitFor);
    await page.getByRole('tab').first().press('Delete');
    await expect(page.getByRole('tab')).toHaveCount(0);
    // The log records the turn as cancelled (the agent answered session/cancel).
    const logs = () => {
      const found: string[] = [];
      const walk = (dir: string) => {
        for (const name of readdirSync(dir, { withFileTypes: true })) {
          const path = join(dir, name.name);
          if (name.isDirectory()) walk(path);
          else if (name.name.endsWith('.jsonl')) found.push(readFileSync(path, 'utf8'));
        }
      };
      walk(host!.dataDir);
      return found.join('\n');
    };
    await expect.poll(() => /"stopReason":"cancelled"/.test(logs()), { timeout: 10_000 }).toBe(true);
    // Reopen from history: the whole conversation is there and the session works.
    await page.getByRole('button', { name: 'History' }).click();
    await page.getByRole('searchbox', { name: 'Search all sessions' }).fill('okapi');
    await page.getByRole('list', { name: 'Search results' }).getByRole('button', { name: /you/ }).first().click();
    await expect(page.getByRole('tablist', { name: 'Open sessions' }).getByRole('tab')).toHaveCount(1);
    await expect(transcript(page)).toContainText('remember the okapi');
    await expect(status(page)).not.toHaveText('Running');
    await send(page, 'back again');
    await expect(transcript(page)).toContainText('Echo: back again');
  });
}
