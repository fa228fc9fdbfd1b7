import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, fixtureAgent, leavePage, openApp, type RunningHost, send, shot, startHost, startSession, test } from './fixtures/host';

// Sessions that last: whatever was on screen before a restart or a crash is there after it.

const hosts: RunningHost[] = [];
test.afterEach(async ({ page }) => {
  await leavePage(page);
  await Promise.all(hosts.splice(0).map((host) => host.stop('SIGKILL')));
});

async function host(options: Parameters<typeof startHost>[0] = {}): Promise<RunningHost> {
  const started = await startHost({ settings: { agents: [fixtureAgent('fixture', 'Fixture Agent', ['--delay', '5'])] }, ...options });
  hosts.push(started);
  return started;
}

async function tabs(page: Page): Promise<{ ids: string[]; active: string | null }> {
  return page.getByRole('tablist', { name: 'Open sessions' }).evaluate((list) => {
    const tabs = Array.from(list.querySelectorAll('[role="tab"]'));
    return {
      ids: tabs.map((tab) => tab.id.replace(/^tab-/, '')),
      active: tabs.find((tab) => tab.getAttribute('aria-selected') === 'true')?.id.replace(/^tab-/, '') ?? null,
    };
  });
}

const transcript = (page: Page) => page.getByRole('log', { name: 'Transcript' });

test('restart the host mid-session: every tab (order, active), every message and the draft come back', async ({ page }) => {
  const first = await host();
  await openApp(page, first);
  await startSession(page, 'Fixture Agent', first.workspace);
  await send(page, 'hello alpha');
  await expect(transcript(page).getByText('Turn ended')).toBeVisible();
  await startSession(page, 'Fixture Agent', first.workspace);
  await send(page, 'hello beta');
  await expect(transcript(page).getByText('Turn ended')).toBeVisible();
  await startSession(page, 'Fixture Agent', first.workspace);
  await send(page, 'hello gamma');
  await expect(transcript(page).getByText('Turn ended')).toBeVisible();

  // Move the last tab to the front (keyboard reorder), then make the middle one active with a draft.
  const before = await tabs(page);
  expect(before.ids).toHaveLength(3);
  await page.locator(`#tab-${before.ids[2]}`).click();
  for (let i = 0; i < 2; i++) await page.locator(`#tab-${before.ids[2]}`).press('Alt+ArrowLeft');
  await expect.poll(async () => (await tabs(page)).ids).toEqual([before.ids[2], before.ids[0], before.ids[1]]);
  await page.locator(`#tab-${before.ids[0]}`).click();
  await expect(transcript(page).getByText('hello alpha', { exact: true })).toBeVisible();
  await page.getByRole('textbox', { name: 'Message' }).fill('a draft that was never sent');
  const shown = await tabs(page);
  expect(shown.active).toBe(before.ids[0]);
  // Drafts are saved after a short pause: give it that pause, then quit.
  await page.waitForTimeout(1200);
  await first.stop();

  const second = await host({ dataDir: first.dataDir, workspace: first.workspace });
  await openApp(page, second);
  await expect.poll(async () => tabs(page)).toEqual(shown);
  await expect(transcript(page).getByText('hello alpha', { exact: true })).toBeVisible();
  await expect(transcript(page).getByText('Echo:', { exact: true })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue('a draft that was never sent');
  for (const [id, word] of [
    [before.ids[1], 'hello beta'],
    [before.ids[2], 'hello gamma'],
  ]) {
    await page.locator(`#tab-${id}`).click();
    await expect(transcript(page).getByText(word, { exact: true })).toBeVisible();
    await expect(transcript(page).getByText('Turn ended')).toBeVisible();
  }
  // A restored session reconnects on the next message (session/load, history not duplicated).
  await send(page, 'after the restart');
  await expect(transcript(page).getByText('after the restart', { exact: true })).toBeVisible();
  await expect(transcript(page).getByText('Turn ended')).toHaveCount(2);
  await expect(transcript(page).getByText('hello gamma', { exact: true })).toHaveCount(1);
  await shot(page, 'sessions-restored-after-restart');

  // The session's header exports it as Markdown.
  await page.locator('summary', { hasText: 'Export' }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('group', { name: 'Export session' }).getByRole('button', { name: 'Markdown' }).click();
  const markdown = readFileSync((await (await download).path())!, 'utf8');
  expect(markdown).toContain('### You\n\nhello gamma');
  expect(markdown).toContain('### You\n\nafter the restart');
});

test('kill -9 during a stream: everything shown up to the kill is there after restart', async ({ page }) => {
  const first = await host();
  await openApp(page, first);
  await startSession(page, 'Fixture Agent', first.workspace);
  await send(page, 'before the crash');
  await expect(transcript(page).getByText('Turn ended')).toBeVisible();
  await send(page, 'slow');
  await expect(transcript(page).getByText(/chunk 12 /)).toBeVisible();
  const seen = await transcript(page).innerText();
  const lastChunk = Math.max(...[...seen.matchAll(/chunk (\d+)/g)].map((m) => Number(m[1])));
  expect(lastChunk).toBeGreaterThanOrEqual(12);
  await first.stop('SIGKILL');

  const log = readFileSync(join(first.dataDir, 'sessions', `${(await tabs(page)).active}.jsonl`), 'utf8');
  expect(log).toContain(`chunk ${lastChunk} `);

  const second = await host({ dataDir: first.dataDir, workspace: first.workspace });
  await openApp(page, second);
  await expect(transcript(page).getByText('before the crash', { exact: true })).toBeVisible();
  const agentText = transcript(page).getByRole('article', { name: 'Agent' }).last();
  for (let i = 0; i <= lastChunk; i++) await expect(agentText).toContainText(`chunk ${i} `);
  await expect(transcript(page).getByText(/Interrupted/)).toBeVisible();
  await expect(page.getByLabel('Session status').first()).not.toHaveText('Running');
});

// @v1: every ACP v2 agent can resume.
test('an agent that can neither resume nor load: read-only transcript and "Start a new session from here"', { tag: '@v1' }, async ({ page }) => {
  const settings = { agents: [fixtureAgent('fixture', 'Fixture Agent', ['--no-load', '--delay', '0'])] };
  const first = await host({ settings });
  await openApp(page, first);
  await startSession(page, 'Fixture Agent', first.workspace);
  await send(page, 'the otter question');
  await expect(transcript(page).getByText('Turn ended')).toBeVisible();
  await first.stop();

  const second = await host({ settings, dataDir: first.dataDir, workspace: first.workspace });
  await openApp(page, second);
  await expect(transcript(page).getByText('the otter question', { exact: true })).toBeVisible();
  await expect(page.getByText(/cannot resume or load earlier sessions/)).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeDisabled();
  const old = (await tabs(page)).active;
  await page.getByRole('button', { name: 'Start a new session from here' }).click();
  await expect.poll(async () => (await tabs(page)).active).not.toBe(old);
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue(/> \*\*Me:\*\* the otter question/);
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeEnabled();
});
