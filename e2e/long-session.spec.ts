import type { Page } from '@playwright/test';
import { turnEvents } from '../src-main/testing/longLog';
import { expect, leavePage, openApp, type RunningHost, send, shot, test } from './fixtures/host';
import { hostWithLongSession } from './fixtures/longSession';

// A long session (issue 23, paging from main): the page opens it from its newest entries and
// pages older ones in as they scroll into view or a search hit asks for one.

const hosts: RunningHost[] = [];
test.afterEach(async ({ page }) => {
  await leavePage(page);
  await Promise.all(hosts.splice(0).map((host) => host.stop('SIGKILL')));
});

const TURNS = 750; // 3,000 entries (4 a turn): 20 times the window the page gets first

/** The prompts shown, in the order of the rows. */
async function promptsShown(page: Page): Promise<string[]> {
  const texts = await page.getByRole('log', { name: 'Transcript' }).getByRole('article', { name: 'You' }).allTextContents();
  // A prompt's row also holds its restore button (checkpoints): only the prompt's words count.
  return texts.map((text) => /^Question \d+/.exec(text)?.[0] ?? text.replace(/Restore files.*$/, '').trim());
}

test('a long session opens at its newest entries, pages older ones in order, jumps to a search hit far back (open or closed) and takes a live turn @v1', async ({
  page,
}) => {
  // The fixture agent's session, with a word only turn 3 says.
  const host = await hostWithLongSession(hosts, 's_long', TURNS, (turn) => turnEvents(turn, turn === 3 ? ' pangolin' : ''));
  await openApp(page, host);
  const transcript = page.getByRole('log', { name: 'Transcript' });

  // The newest entries, with every entry's place kept (3,000 rows, most not loaded yet).
  await expect(transcript.getByText(`Question ${TURNS - 1}:`)).toBeVisible();
  await expect(transcript.locator('.transcript-inner')).toHaveAttribute('data-rows-total', String(TURNS * 4));
  await shot(page, 'long-session-open');

  // Scrolled to the top: the oldest entries are fetched and shown in order.
  await transcript.evaluate((element) => (element.scrollTop = 0));
  await expect(transcript.getByText('Question 0:')).toBeVisible();
  const top = await promptsShown(page);
  expect(top.slice(0, 3)).toEqual(['Question 0', 'Question 1', 'Question 2']);
  await shot(page, 'long-session-top');

  // Scrolled back to the end and then a search hit far back: the page around it loads, the row shows.
  await page.getByRole('button', { name: 'Jump to latest' }).click();
  await expect(transcript.getByText(`Question ${TURNS - 1}:`)).toBeVisible();
  await page.getByRole('button', { name: 'History' }).click();
  await page.getByRole('searchbox', { name: 'Search all sessions' }).fill('pangolin');
  const results = page.getByRole('list', { name: 'Search results' });
  await results.getByRole('button', { name: /you/ }).first().click();
  await expect(transcript.getByText('Question 3 pangolin:')).toBeInViewport();
  await shot(page, 'long-session-search-jump');

  // A live turn after all that: appended at the end, after the last entry of the log.
  await page.getByRole('button', { name: 'Jump to latest' }).click();
  await send(page, 'a live turn after paging');
  await expect(page.getByLabel('Session status')).toHaveText('Idle');
  await expect(transcript.getByText('a live turn after paging').first()).toBeVisible();
  const total = Number(await transcript.locator('.transcript-inner').getAttribute('data-rows-total'));
  expect(total).toBeGreaterThan(TURNS * 4);
  const last = await promptsShown(page);
  expect(last.at(-1)).toBe('a live turn after paging');
  expect(last.at(-2)).toBe(`Question ${TURNS - 1}`);
  await shot(page, 'long-session-live-turn');

  // The same search hit with the session's tab closed: it opens the session, then jumps.
  await page.getByRole('tab').first().press('Delete');
  await expect(page.getByRole('tab')).toHaveCount(0);
  await page.getByRole('button', { name: 'History' }).click();
  await page.getByRole('searchbox', { name: 'Search all sessions' }).fill('pangolin');
  await page.getByRole('list', { name: 'Search results' }).getByRole('button', { name: /you/ }).first().click();
  await expect(transcript.getByText('Question 3 pangolin:')).toBeInViewport();
});
