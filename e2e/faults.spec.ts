import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, leavePage, openApp, ROOT, type RunningHost, send, shot, startHost, startSession, test } from './fixtures/host';

// The fault suite through the UI: a hostile agent floods stdout and a hostile request
// hits the host; the page stays usable. The other faults run against the core in
// src-main/faults/hostileAgent.test.ts (faster there: no browser).

const HOSTILE = join(ROOT, 'e2e/fixtures/hostile-agent.mjs');
const transcript = (page: Page) => page.getByRole('log', { name: 'Transcript' });

let host: RunningHost | undefined;
test.afterEach(async ({ page }) => {
  await leavePage(page);
  await host?.stop();
  host = undefined;
});

test('a hostile agent and a hostile request: a few summarised notices, the app keeps working', async ({ page }) => {
  host = await startHost({ settings: { agents: [{ id: 'hostile', name: 'Hostile Agent', command: process.execPath, args: [HOSTILE] }] } });
  await openApp(page, host);
  await startSession(page, 'Hostile Agent', host.workspace);
  await send(page, 'garbage 5000');
  await expect(transcript(page)).toContainText('Survived 5000 garbage lines.', { timeout: 30_000 });
  await expect(transcript(page)).toContainText('more line(s) like this');
  expect(
    await transcript(page)
      .getByText(/not ACP on stdout/)
      .count(),
  ).toBeLessThan(20);

  // Any page on 127.0.0.1 can plant this cookie: it used to take the host down.
  const res = await fetch(new URL('/', host.url), { headers: { cookie: 'acp_token=%E0%A4%A' } });
  expect(res.status).toBe(401);
  await send(page, 'echo still here');
  await expect(transcript(page)).toContainText('Echo: still here');
  await shot(page, 'faults-hostile-agent');
});
