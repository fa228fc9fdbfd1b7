import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { test as base, expect, fixtureAgent, leavePage, openApp, send, startHost, type RunningHost } from './fixtures/host';

export { expect, send };

/** A host whose only agent is the fixture with the given flags (no chunk delay); console errors fail the test. */
export const engineTest = base.extend<{ agentArgs: string[]; host: RunningHost }>({
  agentArgs: [[], { option: true }],
  // The page leaves before the host stops (see the `host` fixture in fixtures/host.ts).
  host: async ({ agentArgs, page }, use) => {
    const host = await startHost({ settings: { agents: [fixtureAgent('fixture', 'Fixture Agent', ['--delay', '0', ...agentArgs])] } });
    await use(host);
    await leavePage(page);
    await host.stop();
  },
});

/** Opens the app and starts a session; resolves once the session shows `status` (Idle, or Waiting for sign-in). */
export async function openSession(page: Page, host: RunningHost, status = 'Idle'): Promise<void> {
  await openApp(page, host);
  await page.getByRole('button', { name: 'New session with Fixture Agent' }).click();
  const dialog = page.getByRole('dialog', { name: 'New session' });
  await dialog.getByLabel('Workspace folder').fill(host.workspace);
  await dialog.getByRole('button', { name: 'Start' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByLabel('Session status')).toHaveText(status);
}

export const transcript = (page: Page) => page.getByRole('log', { name: 'Transcript' });

export function tempFile(name: string): string {
  return join(mkdtempSync(join(tmpdir(), 'acp-e2e-')), name);
}
