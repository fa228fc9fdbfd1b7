import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { ARTIFACTS, DELIBERATE, fixtureAgent, startHost, startSession, type RunningHost } from './fixtures/host';

export { send, startSession } from './fixtures/host';

export { expect };

/** The fixture agent with config options and commands (the default of these UI tests). */
export const FIXTURE = fixtureAgent('fixture', 'Fixture Agent', ['--config', '--commands']);

type Fixtures = {
  host: RunningHost;
  /** Console errors and page errors seen during the test; asserted empty at its end. */
  problems: string[];
};

/**
 * A test with a fresh host and a page that records console errors and uncaught exceptions;
 * every test ends by asserting there were none.
 */
export const test = base.extend<Fixtures>({
  host: async ({}, use) => {
    const host = await startHost({ settings: { agents: [FIXTURE] } });
    await use(host);
    await host.stop();
  },
  problems: async ({ page }, use) => {
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    await use(problems);
    // A test that stops its own host leaves the page trying to reconnect until it closes.
    expect(
      problems.filter((problem) => !DELIBERATE.some((pattern) => pattern.test(problem))),
      'console errors and page errors during the test',
    ).toEqual([]);
  },
});

export async function openApp(page: Page, host: RunningHost): Promise<void> {
  await page.goto(host.url);
  await expect(page.getByRole('heading', { name: 'Agents' })).toBeVisible();
}

export function transcript(page: Page) {
  return page.getByRole('log', { name: 'Transcript' });
}

export async function waitIdle(page: Page): Promise<void> {
  await expect(page.getByLabel('Session status')).toHaveText('Idle');
}

export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
}

/**
 * Writes a session's event log and the open-tabs file into a data folder before the host
 * starts, so a test can open a session of any size or shape without an agent producing it.
 */
export function seedSession(dataDir: string, sessionId: string, cwd: string, bodies: readonly object[], agent = FIXTURE): void {
  mkdirSync(join(dataDir, 'sessions'), { recursive: true });
  const events = [{ kind: 'session.created', agentId: agent.id, agentName: agent.name, cwd }, ...bodies];
  const ts = Date.now() - events.length * 1000;
  const lines = events.map((body, i) => JSON.stringify({ ...body, sessionId, seq: i + 1, ts: ts + i * 1000 }));
  writeFileSync(join(dataDir, 'sessions', `${sessionId}.jsonl`), lines.join('\n') + '\n');
  writeFileSync(join(dataDir, 'sessions', 'tabs.json'), JSON.stringify({ open: [sessionId], active: sessionId }));
}

/** Opens the app with two sessions of the fixture agent in the workspace (the second one active); returns their tabs. */
export async function openTwoSessions(page: Page, host: RunningHost) {
  await openApp(page, host);
  await startSession(page, 'Fixture Agent', host.workspace);
  await page.getByRole('button', { name: 'New session' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New session' });
  await dialog.getByLabel('Workspace folder').fill(host.workspace);
  await dialog.getByRole('button', { name: 'Start' }).click();
  await waitIdle(page);
  return page.getByRole('tablist', { name: 'Open sessions' }).getByRole('tab');
}
