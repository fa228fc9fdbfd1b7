import { join } from 'node:path';
import { expect, leavePage, openApp, ROOT, type RunningHost, send, shot, startHost, startSession, test } from './fixtures/host';

// Issue 22, defect 1: a v2 agent's terminal whose output comes whole in one `terminal_update`
// shows that output in the side panel's Terminals tab (opened while the command still ran).

const V2_FIXTURE = join(ROOT, 'e2e/fixtures/fixture-agent-v2.mjs');
const hosts: RunningHost[] = [];
test.afterEach(async ({ page }) => {
  await leavePage(page);
  await Promise.all(hosts.splice(0).map((host) => host.stop()));
});

test('an agent terminal reported whole: the Terminals panel shows its output and exit', async ({ page }) => {
  const host = await startHost({
    settings: {
      agents: [{ id: 'v2', name: 'Fixture v2', command: process.execPath, args: [V2_FIXTURE, '--delay', '5'], env: {} }],
      agentOverrides: { v2: { protocol: 'auto' } },
    },
  });
  hosts.push(host);
  await openApp(page, host);
  await startSession(page, 'Fixture v2', host.workspace);
  await send(page, 'termsnapshot 3000');
  const panel = page.getByRole('complementary', { name: 'Side panel' });
  await panel.getByRole('tab', { name: 'Terminals' }).click();
  const view = panel.getByRole('region', { name: 'Terminal: npm run build' });
  await expect(view.getByRole('status')).toHaveText('Running');
  await expect(view.getByRole('status')).toHaveText('Exited with code 0', { timeout: 15_000 });
  await expect(view.locator('.xterm-rows')).toContainText('SNAPSHOT-OUTPUT built ok');
  await shot(page, 'v2-terminal-panel');
});
