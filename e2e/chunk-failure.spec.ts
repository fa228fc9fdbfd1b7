import { turnEvents } from '../src-main/testing/longLog';
import { expect, leavePage, openApp, type RunningHost, test } from './fixtures/host';
import { hostWithLongSession } from './fixtures/longSession';

// The session view's chunk is imported when the page starts (issue 23, round 4: open), outside
// React's lazy loading: a chunk that cannot be fetched must say so, not leave "Loading…" forever.

const hosts: RunningHost[] = [];
test.afterEach(async ({ page }) => {
  await leavePage(page);
  await Promise.all(hosts.splice(0).map((host) => host.stop('SIGKILL')));
});

// One pattern: Playwright would read a two-item array as a fixture's [value, options].
test.use({ expectedConsoleErrors: [/Loading the session view|Failed to load|Failed to fetch|net::ERR_FAILED/] });

test('a session view that cannot be loaded says so and offers to reload, which brings the session back @v1', async ({ page }) => {
  const host = await hostWithLongSession(hosts, 's_chunk', 5, (turn) => turnEvents(turn));
  let blocked = true;
  await page.route(/\/assets\/SessionViews-[^/]+\.js$/, (route) => (blocked ? route.abort('failed') : route.continue()));
  await openApp(page, host);

  const alert = page.getByRole('alert').filter({ hasText: 'Could not load the session view' });
  await expect(alert).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Loading…' })).toHaveCount(0);

  blocked = false;
  await alert.getByRole('button', { name: 'Reload' }).click();
  await expect(page.getByRole('log', { name: 'Transcript' }).getByText('Question 4:')).toBeVisible();
});
