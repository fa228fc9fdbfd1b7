import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { turnEvents } from '../src-main/testing/longLog';
import { expect, fixtureAgent, leavePage, type RunningHost, shot, startHost, test } from './fixtures/host';

// Tabs coming back after a restart (issue 23, round 6). The host answers the page before it reads
// the open tabs' sessions back; the tab strip must show every saved tab, in its saved order and
// named, from its first paint, so a tab does not move under the pointer while the others come
// back. A tab clicked while it is still being read back shows once it is back.

const hosts: RunningHost[] = [];

/** The open tabs' accessible names, in order. */
async function expectTabs(page: Page, names: string[]): Promise<void> {
  const tabs = page.getByRole('tablist', { name: 'Open sessions' }).getByRole('tab');
  await expect(tabs).toHaveCount(names.length);
  for (const [i, name] of names.entries()) await expect(tabs.nth(i)).toHaveAccessibleName(name);
}
test.afterEach(async ({ page }) => {
  await leavePage(page);
  await Promise.all(hosts.splice(0).map((host) => host.stop('SIGKILL')));
});

const TURNS = 12;
const TABS = [
  { sessionId: 's_alpha', title: 'Alpha notes', label: ' [alpha]' },
  { sessionId: 's_beta', title: 'Beta notes', label: ' [beta]' },
  { sessionId: 's_gamma', title: 'Gamma notes', label: ' [gamma]' },
];

/** Writes the three sessions' logs and `tabs.json` (the middle one shown), as a last run left them. */
function seed(dataDir: string, workspace: string): void {
  const sessions = join(dataDir, 'sessions');
  mkdirSync(sessions, { recursive: true });
  for (const { sessionId, title, label } of TABS) {
    const bodies = [
      { kind: 'session.created', agentId: 'fixture', agentName: 'Fixture Agent', cwd: workspace, title },
      { kind: 'session.connected', acpSessionId: `acp_${sessionId}`, how: 'new' },
      ...Array.from({ length: TURNS }, (_, turn) => turnEvents(turn, label)).flat(),
    ];
    const lines = bodies.map((body, i) => JSON.stringify({ ...body, sessionId, seq: i + 1, ts: Date.UTC(2026, 0, 1) + i }));
    writeFileSync(join(sessions, `${sessionId}.jsonl`), lines.join('\n') + '\n');
  }
  writeFileSync(join(sessions, 'tabs.json'), JSON.stringify({ open: TABS.map((tab) => tab.sessionId), active: 's_beta' }));
}

test('the tab strip shows every saved tab in its place from its first paint; a tab clicked while restoring shows once back @v1', async ({ page }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'acp-e2e-tabs-restore-'));
  const workspace = mkdtempSync(join(tmpdir(), 'acp-e2e-ws-'));
  seed(dataDir, workspace);
  // The last tab's session is held back: its snapshot is a named pipe, whose read waits until this
  // test writes to it (then it is no snapshot, and the log is read whole).
  const held = join(dataDir, 'sessions', 's_gamma.snapshot.json');
  execFileSync('mkfifo', [held]);
  const host = await startHost({ dataDir, workspace, settings: { agents: [fixtureAgent('fixture', 'Fixture Agent', ['--delay', '0', '--resume'])] } });
  hosts.push(host);

  // Every state of the tab strip the page ever rendered: each tab's name and whether it is busy.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { tabStrips: string[] }).tabStrips = seen;
    const record = () => {
      const tabs = Array.from(document.querySelectorAll('[role="tablist"][aria-label="Open sessions"] [role="tab"]'));
      if (!tabs.length) return;
      const strip = tabs.map((tab) => tab.querySelector('.tab-title')?.textContent ?? '?').join(' | ');
      if (seen.at(-1) !== strip) seen.push(strip);
    };
    new MutationObserver(record).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await page.goto(host.url);
  const strip = page.getByRole('tablist', { name: 'Open sessions' });
  const transcript = page.getByRole('log', { name: 'Transcript' });
  await expectTabs(
    page,
    TABS.map((tab) => tab.title),
  );
  await expect(transcript.getByText(`Question ${TURNS - 1} [beta]:`)).toBeVisible();

  // The held tab is in its place, marked as restoring; a click shows it as such (no error).
  const gamma = strip.getByRole('tab', { name: 'Gamma notes' });
  await expect(gamma).toHaveAttribute('aria-busy', 'true');
  await gamma.click();
  await expect(gamma).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('status').filter({ hasText: 'Restoring “Gamma notes”…' })).toBeVisible();
  await expect(strip.getByRole('tab', { name: 'Alpha notes' })).not.toHaveAttribute('aria-busy', 'true');
  await shot(page, 'tabs-restore-held');

  // Let its read go on: the click was not lost, the tab becomes itself in place.
  await writeFile(held, 'not a snapshot\n');
  await expect(transcript.getByText(`Question ${TURNS - 1} [gamma]:`)).toBeVisible();
  await expect(gamma).not.toHaveAttribute('aria-busy', 'true');
  await expect(gamma).toHaveAttribute('aria-selected', 'true');
  // No error said (Monaco's own live regions are empty alerts).
  await expect(page.getByRole('alert').filter({ hasText: /\S/ })).toHaveCount(0);

  // From its first paint on, the strip never showed another order, a missing tab or an unnamed one.
  const strips = await page.evaluate(() => (window as unknown as { tabStrips: string[] }).tabStrips);
  expect(strips).toEqual([TABS.map((tab) => tab.title).join(' | ')]);
  await shot(page, 'tabs-restore-back');
});

test('a saved tab whose session cannot be read back stays in its place and says why @v1', async ({ page }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'acp-e2e-tabs-restore-'));
  const workspace = mkdtempSync(join(tmpdir(), 'acp-e2e-ws-'));
  seed(dataDir, workspace);
  writeFileSync(join(dataDir, 'sessions', 's_alpha.jsonl'), 'this is not an event log\n');
  const host = await startHost({ dataDir, workspace, settings: { agents: [fixtureAgent('fixture', 'Fixture Agent', ['--delay', '0', '--resume'])] } });
  hosts.push(host);
  await page.goto(host.url);
  const strip = page.getByRole('tablist', { name: 'Open sessions' });
  await expect(page.getByRole('log', { name: 'Transcript' }).getByText(`Question ${TURNS - 1} [beta]:`)).toBeVisible();
  // Unnamed (neither the history nor its log knows it), but in its place.
  await expectTabs(page, ['Session', 'Beta notes', 'Gamma notes']);
  await strip.getByRole('tab').first().click();
  const why = page.getByRole('alert').filter({ hasText: 'This session could not be restored. Its log is missing or holds no session.' });
  await expect(why).toBeVisible();
  await shot(page, 'tabs-restore-failed');
  await why.getByRole('button', { name: 'Close tab' }).click();
  await expectTabs(page, ['Beta notes', 'Gamma notes']);
});
