import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, fixtureAgent, leavePage, openApp, ROOT, type RunningHost, shot, startHost, test } from './fixtures/host';

// A session log written by the release before the typed event model (src-main/store/fixtures/)
// opens in today's app, converted as it is read, and shows the conversation it showed then.

const hosts: RunningHost[] = [];
test.afterEach(async ({ page }) => {
  await leavePage(page);
  await Promise.all(hosts.splice(0).map((host) => host.stop('SIGKILL')));
});

test('a session written by the previous release opens with its whole conversation @v1', async ({ page }) => {
  const log = join(ROOT, 'src-main/store/fixtures/release-v1.jsonl');
  const sessionId = String((JSON.parse(readFileSync(log, 'utf8').split('\n')[0]) as { sessionId: string }).sessionId);
  const host = await startHost({ settings: { agents: [fixtureAgent('fixture', 'Fixture')] } });
  hosts.push(host);
  await host.stop('SIGTERM');
  const sessions = join(host.dataDir, 'sessions');
  mkdirSync(sessions, { recursive: true });
  copyFileSync(log, join(sessions, `${sessionId}.jsonl`));
  writeFileSync(join(sessions, 'tabs.json'), JSON.stringify({ open: [sessionId], active: sessionId }));
  const again = await startHost({ dataDir: host.dataDir, workspace: host.workspace, settings: { agents: [fixtureAgent('fixture', 'Fixture')] } });
  hosts.push(again);
  await openApp(page, again);
  const transcript = page.getByRole('log', { name: 'Transcript' });
  // The end of the conversation (the transcript is virtualized: earlier rows are not in the DOM).
  for (const text of ['Config changed.', 'meta text', 'Stopping with max_tokens.', 'Stopped: the response hit the token limit'])
    await expect(transcript.getByText(text)).toBeVisible();
  await expect(transcript.getByText('With meta')).toBeVisible();
  // What the agent reported along the way: its title, usage, mode and model.
  await expect(page.getByRole('heading', { name: 'Fixture titled session' })).toBeVisible();
  await expect(page.getByText('53k / 200k')).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Mode', exact: true }).first()).toHaveValue('code');
  await shot(page, 'legacy-log-v1');
});
