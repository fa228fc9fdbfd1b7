import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { turnEvents } from '../src-main/testing/longLog';
import { expect, fixtureAgent, leavePage, openApp, type RunningHost, shot, startHost, test } from './fixtures/host';
import { hostWithSessions } from './fixtures/longSession';

// The first paint (issue 23, round 6): a session the person comes back to shows its newest
// entries at the page's first paint, before the app's script has run (index.html carries the
// rows the page last showed, while the log is unchanged), and the app's own transcript takes over.

const hosts: RunningHost[] = [];
test.afterEach(async ({ page }) => {
  await leavePage(page);
  await Promise.all(hosts.splice(0).map((host) => host.stop('SIGKILL')));
});

const TURNS = 30;
const NEWEST = `Question ${TURNS - 1} [second]:`;

/** A host whose shown tab `s_second` was last seen at its bottom, and its first paint saved. */
async function cameBack(page: import('@playwright/test').Page): Promise<{ host: RunningHost; paint: string; log: string }> {
  const first = await hostWithSessions(
    hosts,
    ['first', 'second'].map((label) => ({ sessionId: `s_${label}`, turns: TURNS, turn: (n: number) => turnEvents(n, ` [${label}]`) })),
    's_second',
  );
  await openApp(page, first);
  await expect(page.getByRole('log', { name: 'Transcript' }).getByText(NEWEST)).toBeVisible();
  const paint = join(first.dataDir, 'sessions', 's_second.paint.json');
  // Sent once the transcript has been quiet at its bottom for a moment.
  await expect.poll(() => existsSync(paint), { timeout: 15_000 }).toBe(true);
  await leavePage(page);
  await first.stop('SIGTERM');
  const host = await startHost({
    dataDir: first.dataDir,
    workspace: first.workspace,
    settings: { agents: [fixtureAgent('fixture', 'Fixture Agent', ['--delay', '0', '--resume'])] },
  });
  hosts.push(host);
  return { host, paint, log: join(first.dataDir, 'sessions', 's_second.jsonl') };
}

/** `cameBack`, and the app state this host's page had saved for the next start (`app-state.json`). */
async function cameBackWithState(page: import('@playwright/test').Page): Promise<RunningHost> {
  const { host } = await cameBack(page);
  // Saved by this host: the one before wrote settings.json anew when it started.
  const cache = join(host.dataDir, 'app-state.json');
  rmSync(cache, { force: true });
  await openApp(page, host);
  await expect(page.getByRole('log', { name: 'Transcript' }).getByText(NEWEST)).toBeVisible();
  await expect.poll(() => existsSync(cache), { timeout: 15_000 }).toBe(true);
  await leavePage(page);
  return host;
}

/** Holds the app's script back until `release` is called. */
async function holdScript(page: import('@playwright/test').Page): Promise<() => void> {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/index-*.js', async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

test('a session comes back showing its newest entries before the app’s script has run @v1', async ({ page }) => {
  const { host } = await cameBack(page);
  const release = await holdScript(page);
  // Not until `load`: the held script holds it back.
  await page.goto(host.url, { waitUntil: 'commit' });
  const painted = page.locator('#first-paint');
  // The newest entry, shown from index.html alone: the app (its transcript, its agent list) is not there yet.
  await expect(painted).toContainText(NEWEST);
  await expect(painted.getByText(NEWEST)).toBeInViewport();
  await expect(page.getByRole('log', { name: 'Transcript' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Agents' })).toHaveCount(0);
  // It ignores the pointer and is not read out twice: the app's own transcript follows.
  expect(await painted.getAttribute('inert')).not.toBeNull();
  expect(await painted.getAttribute('aria-hidden')).toBe('true');
  await shot(page, 'first-paint-before-script');

  release();
  const transcript = page.getByRole('log', { name: 'Transcript' });
  await expect(transcript.getByText(NEWEST)).toBeVisible();
  await expect(painted).toHaveCount(0);
  await shot(page, 'first-paint-app-took-over');
});

// The host's core loads when the page's socket asks (round 8): with a first paint, the early script
// opens that socket once the first frame is on the screen, so loading the core does not take the
// cores that frame is laid out and rastered on.
test('with a first paint, the page opens its socket only once that frame is on the screen @v1', async ({ page }) => {
  const { host } = await cameBack(page);
  await page.addInitScript(() => {
    const Native = window.WebSocket;
    const opened: number[] = [];
    (window as unknown as { socketsOpenedAt: number[] }).socketsOpenedAt = opened;
    window.WebSocket = class extends Native {
      constructor(url: string | URL, protocols?: string | string[]) {
        opened.push(performance.now());
        super(url, protocols);
      }
    };
  });
  await openApp(page, host);
  await expect(page.getByRole('log', { name: 'Transcript' }).getByText(NEWEST)).toBeVisible();
  const { opened, painted } = await page.evaluate(() => ({
    opened: (window as unknown as { socketsOpenedAt: number[] }).socketsOpenedAt,
    painted: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
  }));
  expect(painted).toBeGreaterThan(0);
  // One socket (the early script's, adopted by the app), opened after the first frame.
  expect(opened).toHaveLength(1);
  expect(opened[0]).toBeGreaterThanOrEqual(painted!);
});

test('a session that moved on since its first paint is not shown from it @v1', async ({ page }) => {
  const { host, log } = await cameBack(page);
  // An event written after the paint was saved (a host killed after it, or another window).
  const lines = readFileSync(log, 'utf8').trimEnd().split('\n');
  const last = JSON.parse(lines[lines.length - 1]) as { seq: number; ts: number };
  appendFileSync(log, `${JSON.stringify({ kind: 'title.changed', title: 'Renamed later', sessionId: 's_second', seq: last.seq + 1, ts: last.ts + 1 })}\n`);
  const html = await (await page.request.get(host.url)).text();
  expect(html).not.toContain('id="first-paint"');
  await openApp(page, host);
  await expect(page.getByRole('log', { name: 'Transcript' }).getByText(NEWEST)).toBeVisible();
});

// Cold start (issue 23, round 6): the agent list, sessions and tabs the page last had come with
// index.html, so the page draws them as soon as its script runs, before the host's core has
// loaded and answered; the answer replaces them. Checked by never letting the socket through.
test('the agent list and tabs are drawn before the host has answered, and not after the settings changed @v1', async ({ page }) => {
  const host = await cameBackWithState(page);
  // The socket goes nowhere: everything drawn comes from index.html.
  await page.routeWebSocket(/\/ws/, () => {});
  await page.goto(host.url);
  await expect(page.getByRole('button', { name: 'New session with Fixture Agent' })).toBeVisible();
  const tabs = page.getByRole('tablist', { name: 'Open sessions' }).getByRole('tab');
  await expect(tabs).toHaveCount(2);
  await expect(tabs.nth(1)).toHaveAttribute('aria-selected', 'true');
  await shot(page, 'first-paint-app-state-before-answer');

  // Settings edited while the app was closed: the saved state may be wrong, so none is drawn.
  await leavePage(page);
  await host.stop('SIGTERM');
  const settings = join(host.dataDir, 'settings.json');
  const edited = JSON.parse(readFileSync(settings, 'utf8')) as { agents: { name: string }[] };
  edited.agents[0].name = 'Renamed Agent';
  writeFileSync(settings, JSON.stringify(edited));
  const again = await startHost({ dataDir: host.dataDir, workspace: host.workspace });
  hosts.push(again);
  await page.goto(again.url);
  await expect(page.getByRole('log', { name: 'Transcript' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /New session with/ })).toHaveCount(0);
  // With the host answering (another page: this one's socket stays cut), the edited settings show.
  const answered = await page.context().newPage();
  await openApp(answered, again);
  await expect(answered.getByRole('button', { name: 'New session with Renamed Agent' })).toBeVisible();
  await answered.close();
});

// Cold start, at the first paint (issue 23, round 7): the sidebar and tab strip the page drew from
// the cached app state come with index.html too, so the agent list is on screen before the app's
// script has run; the app's first commit draws the same and takes their place.
test('the agent list and tabs are on screen before the app’s script has run, a click on them is not lost, and the app takes their place @v1', async ({
  page,
}) => {
  const host = await cameBackWithState(page);
  // Drawn by the next page at its first commit, which sends what it drew as the shell.
  const shellFile = join(host.dataDir, 'shell-paint.json');
  await openApp(page, host);
  await expect(page.getByRole('button', { name: 'New session with Fixture Agent' })).toBeVisible();
  await expect.poll(() => existsSync(shellFile), { timeout: 15_000 }).toBe(true);
  await leavePage(page);

  const release = await holdScript(page);
  await page.goto(host.url, { waitUntil: 'commit' });
  const shell = page.locator('#first-paint-shell');
  // From index.html alone: the agent list, both tabs and the shown session's newest rows.
  await expect(shell.getByText('Fixture Agent').first()).toBeInViewport();
  await expect(shell.locator('[role="tab"]')).toHaveCount(2);
  await expect(page.locator('#first-paint')).toContainText(NEWEST);
  // A picture: it ignores the pointer and is not read out; the app's own list is not there yet.
  expect(await shell.getAttribute('inert')).not.toBeNull();
  expect(await shell.getAttribute('aria-hidden')).toBe('true');
  await expect(page.getByRole('button', { name: 'New session with Fixture Agent' })).toHaveCount(0);
  await shot(page, 'first-paint-shell-before-script');

  // A click on the picture is not lost: the app makes it on what it draws in that place.
  const box = (await shell.locator('button[aria-label="New session with Fixture Agent"]').boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(page.getByRole('dialog', { name: 'New session' })).toHaveCount(0);

  release();
  await expect(page.getByRole('dialog', { name: 'New session' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'New session with Fixture Agent' })).toBeVisible();
  await expect(shell).toHaveCount(0);
  await expect(page.getByRole('log', { name: 'Transcript' }).getByText(NEWEST)).toBeVisible();
  await shot(page, 'first-paint-shell-app-took-over');

  // A shell drawn from another cached state than the one served now is not shown.
  const saved = JSON.parse(readFileSync(shellFile, 'utf8')) as { key: string };
  writeFileSync(shellFile, JSON.stringify({ ...saved, key: 'another-state' }));
  expect(await (await page.request.get(host.url)).text()).not.toContain('id="first-paint-shell"');
});
