import { turnEvents } from '../src-main/testing/longLog';
import { expect, leavePage, openApp, type RunningHost, shot, test } from './fixtures/host';
import { hostWithSessions } from './fixtures/longSession';

// Opening a session in the page (issue 23, round 4): what the page asks for, in what order,
// checked rather than timed. The session view's chunks are fetched beside the start bundle (not
// once its script has run), and the shown tab's window is asked for first.

const hosts: RunningHost[] = [];
test.afterEach(async ({ page }) => {
  await leavePage(page);
  await Promise.all(hosts.splice(0).map((host) => host.stop('SIGKILL')));
});

const TURNS = 30;

test('a page load fetches the session view with the start bundle and asks for the shown tab’s window first @v1', async ({ page }) => {
  // Three tabs; the shown one is not the first.
  const host = await hostWithSessions(
    hosts,
    ['first', 'second', 'third'].map((label) => ({ sessionId: `s_${label}`, turns: TURNS, turn: (n: number) => turnEvents(n, ` [${label}]`) })),
    's_second',
  );

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
  // A page served with a first paint names them for after that frame: they become preloads
  // when the entry is fetched (src-renderer/entryAfterFirstPaint.ts), still beside it.
  const html = await (await page.request.get(host.url)).text();
  const preloaded = [...html.matchAll(/<link (?:rel|data-preload-after-first-paint)="modulepreload"[^>]*href="[^"]*\/assets\/([A-Za-z]+)-/g)].map(
    (match) => match[1],
  );
  expect(preloaded).toContain('SessionViews');
  expect(preloaded).toContain('Markdown');

  // The shown tab's window first, then the others; each once.
  await expect.poll(() => windows.length).toBe(3);
  expect(windows).toEqual(['s_second', 's_first', 's_third']);

  // The other tabs show theirs when clicked.
  await page.getByRole('tablist', { name: 'Open sessions' }).getByRole('tab').nth(2).click();
  await expect(transcript.getByText(`Question ${TURNS - 1} [third]:`)).toBeVisible();
});

// The page's load (issue 23, round 5): the socket, `app.state` and the shown tab's window do not
// wait for index.js (React DOM) to arrive and run; a small early script asks for them meanwhile
// and the page takes its answers. Checked by holding index.js back until the window is asked
// for (or 10 s): before the early script, nothing could ask without index.js.
test('the shown tab’s window is asked for before index.js has run, and the page takes the early answers @v1', async ({ page }) => {
  const host = await hostWithSessions(
    hosts,
    ['first', 'second'].map((label) => ({ sessionId: `s_${label}`, turns: TURNS, turn: (n: number) => turnEvents(n, ` [${label}]`) })),
    's_second',
  );
  const sent: { name: string; sessionId?: string }[] = [];
  let windowAsked: () => void = () => {};
  const asked = new Promise<void>((resolve) => (windowAsked = resolve));
  page.on('websocket', (socket) => {
    socket.on('framesent', ({ payload }) => {
      const request = JSON.parse(String(payload)) as { name: string; input?: { sessionId?: string } };
      sent.push({ name: request.name, sessionId: request.input?.sessionId });
      if (request.name === 'session.window' && request.input?.sessionId === 's_second') windowAsked();
    });
  });
  let heldUntilAsked: boolean | null = null;
  await page.route('**/assets/index-*.js', async (route) => {
    heldUntilAsked = await Promise.race([asked.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000))]);
    await route.continue();
  });
  await openApp(page, host);
  const transcript = page.getByRole('log', { name: 'Transcript' });
  await expect(transcript.getByText(`Question ${TURNS - 1} [second]:`)).toBeVisible();
  expect(heldUntilAsked).toBe(true);
  // The page asked nothing twice: one app.state and one window per tab (the shown one first).
  await expect.poll(() => sent.filter((r) => r.name === 'session.window').length).toBe(2);
  expect(sent.filter((r) => r.name === 'app.state')).toHaveLength(1);
  expect(sent.filter((r) => r.name === 'session.window').map((r) => r.sessionId)).toEqual(['s_second', 's_first']);
  await shot(page, 'open-page-early-socket');

  // A reload opens the early socket again with the token kept from the first load.
  await page.unroute('**/assets/index-*.js');
  sent.length = 0;
  await page.reload();
  await expect(transcript.getByText(`Question ${TURNS - 1} [second]:`)).toBeVisible();
  expect(sent.filter((r) => r.name === 'app.state')).toHaveLength(1);
  await page.getByRole('tablist', { name: 'Open sessions' }).getByRole('tab').nth(0).click();
  await expect(transcript.getByText(`Question ${TURNS - 1} [first]:`)).toBeVisible();
});
