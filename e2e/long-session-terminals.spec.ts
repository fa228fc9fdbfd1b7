import { turnEvents } from '../src-main/testing/longLog';
import { expect, leavePage, openApp, type RunningHost, shot, test } from './fixtures/host';
import { hostWithLongSession } from './fixtures/longSession';

// A long session full of terminals and code (issue 23): every other turn ran a command with
// coloured output. Its rows show a finished terminal as text until the row stays in view, and the
// side panel lists the newest terminals, not one xterm for every command the session ever ran.

const hosts: RunningHost[] = [];
test.afterEach(async ({ page }) => {
  await leavePage(page);
  await Promise.all(hosts.splice(0).map((host) => host.stop('SIGKILL')));
});

const TURNS = 400; // 1,600 entries, 200 terminals

test('a session that ran 200 terminals: rows show finished ones as coloured text until they stay in view, the panel lists the newest @v1', async ({ page }) => {
  const host = await hostWithLongSession(hosts, 's_terms', TURNS, (turn) => turnEvents(turn, '', 'mixed'));
  await openApp(page, host);
  const transcript = page.getByRole('log', { name: 'Transcript' });
  const newest = transcript.getByRole('region', { name: `Terminal: npm test -- turn${TURNS - 1}` });

  // The newest terminal's last lines, coloured, with no escape codes; then xterm once it stayed in view.
  await expect(newest).toContainText(`test ${TURNS - 1}.11`);
  await expect(newest).not.toContainText('[32m');
  await expect(newest.locator('.xterm-rows')).toContainText(`test ${TURNS - 1}.11`);
  await expect(newest.locator('.xterm-rows span.xterm-fg-2').first()).toHaveText('✓');

  // The side panel: the newest 12 terminals, and where the others are.
  const panel = page.getByRole('complementary', { name: 'Side panel' });
  await panel.getByRole('tab', { name: 'Terminals' }).click();
  await expect(panel.getByText('Earlier terminals are shown with their tool calls in the transcript.')).toBeVisible();
  await expect(panel.getByRole('region', { name: /^Terminal: / })).toHaveCount(12);
  await expect(panel.getByRole('region', { name: `Terminal: npm test -- turn${TURNS - 1}` })).toBeVisible();
  await expect(panel.getByRole('region', { name: `Terminal: npm test -- turn${TURNS - 25}` })).toHaveCount(0);
  await shot(page, 'long-session-terminals');

  // Far back: an old row's terminal comes with its page, as text first.
  await transcript.evaluate((el) => (el.scrollTop = el.scrollHeight / 3));
  const old = transcript.getByRole('region', { name: /^Terminal: npm test -- turn\d+$/ }).first();
  await expect(old.locator('.terminal-text, .xterm-rows')).toContainText(/test \d+\.\d+/);
  await expect(transcript.getByText(/^Terminal term\d+ \(not run by this app\)/)).toHaveCount(0);
});
