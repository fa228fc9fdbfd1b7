import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionEvent, SessionEventBody } from '../src-shared/session/events';
import { EventLog } from '../src-main/store/eventLog';
import { turnEvents } from '../src-main/testing/longLog';
import { expect, fixtureAgent, leavePage, openApp, type RunningHost, shot, startHost, test } from './fixtures/host';

// Opening a session in the page (issue 23, round 4): what the page asks for, in what order,
// checked rather than timed. The session view's chunks are fetched beside the start bundle (not
// once its script has run), and the shown tab's window is asked for first.

const hosts: RunningHost[] = [];
test.afterEach(async ({ page }) => {
  await leavePage(page);
  await Promise.all(hosts.splice(0).map((host) => host.stop('SIGKILL')));
});

const TURNS = 30;

function writeLog(sessions: string, workspace: string, sessionId: string, label: string): void {
  const log = new EventLog(join(sessions, `${sessionId}.jsonl`));
  const bodies: SessionEventBody[] = [
    { kind: 'session.created', agentId: 'fixture', agentName: 'Fixture Agent', cwd: workspace },
    { kind: 'session.connected', acpSessionId: `acp_${sessionId}`, how: 'new' },
  ];
  for (let turn = 0; turn < TURNS; turn++) bodies.push(...turnEvents(turn, label));
  log.append(bodies.map((body, i) => ({ ...body, sessionId, seq: i + 1, ts: Date.UTC(2026, 0, 1) + i }) as SessionEvent));
  log.close();
}

test('a page load fetches the session view with the start bundle and asks for the shown tab’s window first @v1', async ({ page }) => {
  const agents = [fixtureAgent('fixture', 'Fixture Agent', ['--delay', '0', '--resume'])];
  const first = await startHost({ settings: { agents } });
  hosts.push(first);
  await first.stop('SIGTERM');
  const sessions = join(first.dataDir, 'sessions');
  mkdirSync(sessions, { recursive: true });
  for (const [id, label] of [
    ['s_first', ' [first]'],
    ['s_second', ' [second]'],
    ['s_third', ' [third]'],
  ])
    writeLog(sessions, first.workspace, id, label);
  // The shown tab is not the first one.
  writeFileSync(join(sessions, 'tabs.json'), JSON.stringify({ open: ['s_first', 's_second', 's_third'], active: 's_second' }));
  const host = await startHost({ dataDir: first.dataDir, workspace: first.workspace, settings: { agents } });
  hosts.push(host);

  // Each window the page asks for on the socket, in order.
  const windows: string[] = [];
  page.on('websocket', (socket) => {
    socket.on('framesent', ({ payload }) => {
      const window = /"name":"session\.window","input":\{"sessionId":"([^"]+)"/.exec(String(payload));
      if (window) windows.push(window[1]);
    });
  });
  await openApp(page, host);
  const transcript = page.getByRole('log', { name: 'Transcript' });
  await expect(transcript.getByText(`Question ${TURNS - 1} [second]:`)).toBeVisible();
  await shot(page, 'open-page-second-tab-shown');

  // The session view's chunk and its Markdown chunk were asked for before any script opened the socket.
  // index.html names the session view's chunk and its Markdown chunk, so the browser fetches
  // them beside the start bundle, not from an import() once the start bundle has run.
  // (The served file: at run time Vite's import() helper adds such links to the document too.)
  const html = await (await page.request.get(host.url)).text();
  const preloaded = [...html.matchAll(/<link rel="modulepreload"[^>]*href="[^"]*\/assets\/([A-Za-z]+)-/g)].map((match) => match[1]);
  expect(preloaded).toContain('SessionViews');
  expect(preloaded).toContain('Markdown');

  // The shown tab's window first, then the others; each once.
  await expect.poll(() => windows.length).toBe(3);
  expect(windows).toEqual(['s_second', 's_first', 's_third']);

  // The other tabs show theirs when clicked.
  await page.getByRole('tablist', { name: 'Open sessions' }).getByRole('tab').nth(2).click();
  await expect(transcript.getByText(`Question ${TURNS - 1} [third]:`)).toBeVisible();
});
