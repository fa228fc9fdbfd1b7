import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, fixtureAgent, leavePage, openApp, type RunningHost, send, shot, startHost, startSession, test } from './fixtures/host';

// History and search.

const hosts: RunningHost[] = [];
test.afterEach(async ({ page }) => {
  await leavePage(page);
  await Promise.all(hosts.splice(0).map((host) => host.stop()));
});

const transcript = (page: Page) => page.getByRole('log', { name: 'Transcript' });

async function openHistory(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'History' }).click();
  await expect(page.getByRole('heading', { name: 'History' })).toBeVisible();
}

test('search finds a word from an old session and opens it at that entry; export downloads Markdown', async ({ page }) => {
  const first = await startHost({ settings: { agents: [fixtureAgent('fixture', 'Fixture Agent', ['--delay', '0'])] } });
  hosts.push(first);
  await openApp(page, first);
  await startSession(page, 'Fixture Agent', first.workspace);
  await send(page, 'remember the pangolin');
  await expect(transcript(page).getByText('Turn ended')).toBeVisible();
  for (let i = 1; i <= 8; i++) {
    await send(page, `filler message ${i}`);
    // (The transcript is virtualized: count nothing off screen; wait for this turn to end.)
    await expect(transcript(page).getByText(`filler message ${i}`, { exact: true })).toBeVisible();
    await expect(page.getByLabel('Session status')).toHaveText('Idle');
  }
  // Make it an old session: restart the host, close its tab.
  await first.stop();
  const second = await startHost({
    dataDir: first.dataDir,
    workspace: first.workspace,
    settings: { agents: [fixtureAgent('fixture', 'Fixture Agent', ['--delay', '0'])] },
  });
  hosts.push(second);
  await openApp(page, second);
  await expect(transcript(page).getByText('filler message 8', { exact: true })).toBeVisible();
  // Tabs close with Delete (the × is a mouse affordance outside the accessibility tree).
  await page.getByRole('tab').first().press('Delete');
  await expect(page.getByRole('tab')).toHaveCount(0);

  await openHistory(page);
  await page.getByRole('searchbox', { name: 'Search all sessions' }).fill('pangolin');
  const results = page.getByRole('list', { name: 'Search results' });
  await expect(results.getByRole('button')).toHaveCount(2); // the prompt and the echo
  await expect(results.getByRole('button').first()).toContainText('pangolin');
  await shot(page, 'sessions-search-results');
  await results.getByRole('button', { name: /you/ }).click();
  const entry = transcript(page).getByText('remember the pangolin', { exact: true });
  await expect(entry).toBeInViewport();
  await expect(page.getByRole('tab')).toHaveCount(1);

  await openHistory(page);
  const row = page
    .getByRole('listitem', { name: 'Untitled session' })
    .or(page.getByRole('list', { name: 'Sessions' }).getByRole('listitem'))
    .first();
  const download = page.waitForEvent('download');
  await row.getByRole('button', { name: 'Export Markdown' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.md$/);
  const markdown = readFileSync((await file.path())!, 'utf8');
  expect(markdown).toContain('### You\n\nremember the pangolin');
  expect(markdown).toContain('_Turn ended_');
  const logDownload = page.waitForEvent('download');
  await row.getByRole('button', { name: 'Export log' }).click();
  const log = readFileSync((await (await logDownload).path())!, 'utf8');
  expect(log.split('\n')[0]).toContain('"kind":"session.created"');
});

test('history shows the sessions an agent lists through session/list, page by page, and opens one', async ({ page }) => {
  const listing = await startHost({ settings: { agents: [fixtureAgent('lister', 'Lister', ['--list', '--delay', '0'])] } });
  hosts.push(listing);
  await openApp(page, listing);
  await startSession(page, 'Lister', listing.workspace);
  await send(page, 'a local one');
  await expect(transcript(page).getByText('Turn ended')).toBeVisible();

  await openHistory(page);
  const sessions = page.getByRole('list', { name: 'Sessions' });
  await expect(sessions.getByRole('listitem', { name: 'Listed session one' })).toBeVisible();
  await expect(sessions.getByRole('listitem', { name: 'Listed session two' })).toBeVisible();
  await expect(sessions.getByRole('listitem', { name: 'Listed session three' })).toHaveCount(0);
  await page.getByRole('button', { name: 'More sessions from Lister' }).click();
  await expect(sessions.getByRole('listitem', { name: 'Listed session three' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'More sessions from Lister' })).toHaveCount(0);
  await expect(sessions.getByRole('listitem', { name: 'Listed session one' })).toContainText('on agent only');
  await shot(page, 'sessions-history-agent-list');

  await sessions.getByRole('listitem', { name: 'Listed session one' }).getByRole('button', { name: 'Open' }).click();
  await expect(transcript(page).getByText('Earlier answer from the listed session.')).toBeVisible();
  await expect(page.getByRole('tab')).toHaveCount(2);

  // Now it is local and bound to the listed id: one merged row.
  await openHistory(page);
  const merged = sessions.getByRole('listitem', { name: 'Listed session one' });
  await expect(merged).toHaveCount(1);
  await expect(merged).toContainText('on agent');
  await expect(merged).not.toContainText('on agent only');

  // Rename it; fork it.
  await merged.getByRole('button', { name: 'Rename' }).click();
  await merged.getByRole('textbox', { name: 'New title' }).fill('My renamed session');
  await merged.getByRole('button', { name: 'Save' }).click();
  const renamed = sessions.getByRole('listitem', { name: 'My renamed session' });
  await expect(renamed).toBeVisible();
  await renamed.getByRole('button', { name: 'Fork' }).click();
  await expect(transcript(page).getByText('Earlier answer from the listed session.')).toBeVisible();
  await expect(page.getByRole('tab')).toHaveCount(3);
  await expect(page.getByRole('tab', { selected: true })).toContainText('My renamed session (fork)');

  // Delete the fork, here and on the agent.
  await openHistory(page);
  const fork = sessions.getByRole('listitem', { name: 'My renamed session (fork)' });
  await expect(fork).toContainText('fork');
  await fork.getByRole('button', { name: 'Delete' }).click();
  await fork.getByRole('checkbox', { name: /also on Lister/ }).check();
  await fork.getByRole('group', { name: 'Confirm delete' }).getByRole('button', { name: 'Delete' }).click();
  await expect(sessions.getByRole('listitem', { name: 'My renamed session (fork)' })).toHaveCount(0);
  await expect(page.getByRole('tab')).toHaveCount(2);
});
