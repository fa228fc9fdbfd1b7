import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import {
  ARTIFACTS,
  expect,
  FIXTURE_AGENT,
  leavePage,
  openApp,
  protocolShown,
  ROOT,
  type RunningHost,
  send,
  startHost,
  startSession,
  test,
} from './fixtures/host';

// ACP v1 and v2 side by side, through the real UI: the v2 fixture agent (on the SDK's v2 agent
// API) under the `auto` setting, the v1 fixture agent under `v1`, and the protocol picked in
// the settings page.

const V2_FIXTURE = join(ROOT, 'e2e/fixtures/fixture-agent-v2.mjs');

const hosts: RunningHost[] = [];
test.afterEach(async ({ page }) => {
  await leavePage(page);
  await Promise.all(hosts.splice(0).map((host) => host.stop()));
});

const v2Agent = (protocol?: string, extra: string[] = []) => ({
  id: 'v2',
  name: 'Fixture v2',
  command: process.execPath,
  args: [V2_FIXTURE, '--delay', '5', ...extra],
  ...(protocol ? { protocol } : {}),
});
const v1Agent = { id: 'fixture', name: 'Fixture Agent', command: process.execPath, args: [FIXTURE_AGENT, '--delay', '5'], protocol: 'v1' };

async function host(agents: unknown[]): Promise<RunningHost> {
  const started = await startHost({ settings: { agents } });
  hosts.push(started);
  return started;
}

const transcript = (page: Page) => page.getByRole('log', { name: 'Transcript' });
const waitIdle = (page: Page) => expect(page.getByLabel('Session status')).toHaveText('Idle');

test('ACP v2 under "auto": a conversation, a multi-change diff with its git patch, an agent terminal with Cancel, permission subjects, an unknown state', async ({
  page,
}) => {
  test.setTimeout(240_000); // Monaco and xterm load here; the v2-render spec measured 2.1 min at load average 25 on 2 cores
  const h = await host([v2Agent('auto')]);
  await openApp(page, h);
  await startSession(page, 'Fixture v2', h.workspace);
  expect(await protocolShown(page)).toBe('ACP v2');

  await send(page, 'hello there');
  await expect(transcript(page).getByText('You said: hello there')).toBeVisible();
  await waitIdle(page);

  // A tool call with several changes and a git patch.
  await send(page, 'tools');
  const card = transcript(page).getByRole('article', { name: 'Tool call: Edit two files' });
  await expect(card.getByRole('list', { name: 'Changed files' }).getByRole('listitem')).toHaveText([
    'Modified /w/a.txt',
    'Added /w/b.txt',
    'Deleted /w/c.txt',
    'Moved /w/d.txt → /w/e.txt',
    '_x_touch /w/f.txt',
  ]);
  await expect(card.getByRole('group', { name: 'Diff of /w/a.txt' })).toBeVisible();
  await card.getByRole('button', { name: 'Git patch' }).press('Enter');
  await expect(card.getByLabel('Patch text')).toContainText('+TWO');
  await waitIdle(page);

  // An agent-owned terminal: its output in xterm, and Cancel stops it through the agent.
  await send(page, 'terminal 60000');
  const watch = transcript(page).getByRole('article', { name: 'Tool call: Watch' });
  const terminal = watch.getByRole('region', { name: 'Terminal: npm run watch' });
  await expect(terminal.locator('.xterm-rows')).toContainText('watching… ✓');
  const cancel = watch.getByRole('button', { name: 'Cancel', exact: true });
  await cancel.click();
  await expect(terminal.locator('.xterm-rows')).toContainText('stopped');
  await expect(cancel).toBeHidden();
  await waitIdle(page);

  // Permission requests: a command subject, an unknown `_x` subject shown generically, a tool call.
  await send(page, 'permission');
  // Named by the request's own title (the tool call it names is 'Run tests').
  const command = page.getByRole('group', { name: 'Permission requested: Run npm test?' });
  await expect(command.getByLabel('Command to run')).toHaveText('$ npm test');
  await expect(command.getByText('The tests write to /tmp.')).toBeVisible();
  await command.getByRole('button', { name: 'Allow' }).click();
  const door = page.getByRole('group', { name: 'Permission requested: Open the pod bay doors?' });
  await expect(door.getByRole('group', { name: 'Unknown: permission subject _x_door' })).toBeVisible();
  await door.getByRole('button', { name: 'Reject' }).click();
  await page.getByRole('group', { name: 'Permission requested: Edit config?' }).getByRole('button', { name: 'Allow' }).click();
  await expect(transcript(page).getByText('Answers: yes, no, yes')).toBeVisible();
  await waitIdle(page);

  // A state this client does not know: busy while it lasts, shown generically once.
  await send(page, 'unknownstate');
  await expect(transcript(page).getByRole('group', { name: 'Unknown: session state _x_compacting' })).toHaveCount(1);
  await expect(transcript(page).getByText('after compaction')).toBeVisible();
  await waitIdle(page);
  await expect(transcript(page).getByRole('group', { name: 'Unknown: session state _x_compacting' })).toHaveCount(1);
});

test('the protocol is picked per agent in the settings page (default v1), and the session info shows the version in use', async ({ page }) => {
  const h = await host([v2Agent()]);
  await openApp(page, h);
  await page.getByRole('button', { name: 'Settings' }).click();
  const select = page.getByRole('combobox', { name: 'Protocol for Fixture v2' });
  await expect(select).toHaveValue('v1');
  await select.selectOption('auto');
  await expect(page.getByText('Saved.', { exact: true })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'settings.json' })).toHaveValue(/"protocol": "auto"/);
  await page.getByRole('button', { name: 'Close settings' }).click();
  await startSession(page, 'Fixture v2', h.workspace);
  expect(await protocolShown(page)).toBe('ACP v2');
});

test('the same scripted conversation in ACP v1 and v2 looks the same (screenshots side by side)', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const texts: string[] = [];
  const shots: Buffer[] = [];
  for (const agent of ['Fixture Agent', 'Fixture v2']) {
    // One app per version, each knowing both agents: only the agent talked to differs.
    const h = await host([v1Agent, v2Agent('auto', ['--no-config'])]);
    const tab = agent === 'Fixture Agent' ? page : await browser.newPage();
    await tab.setViewportSize({ width: 900, height: 900 });
    await openApp(tab, h);
    await startSession(tab, agent, h.workspace);
    await send(tab, 'tour');
    await expect(transcript(tab).getByText('Summary:')).toBeVisible();
    await waitIdle(tab);
    await expect(tab.getByRole('listitem', { name: 'Summarise it — Completed, Medium priority' })).toBeVisible();
    expect(await protocolShown(tab)).toBe(agent === 'Fixture Agent' ? 'ACP v1' : 'ACP v2');
    texts.push((await transcript(tab).innerText()).replaceAll(h.workspace, '<workspace>'));
    shots.push(await tab.screenshot());
    if (tab !== page) await tab.close();
  }
  // What a person reads is the same, line for line.
  expect(texts[1]).toBe(texts[0]);
  const side = await browser.newPage();
  await side.setViewportSize({ width: 1820, height: 940 });
  const img = (png: Buffer, label: string) =>
    `<figure style="margin:0"><figcaption>${label}</figcaption><img src="data:image/png;base64,${png.toString('base64')}"></figure>`;
  await side.setContent(
    `<body style="margin:0;display:flex;gap:20px;font:14px sans-serif">${img(shots[0], 'ACP v1 (Fixture Agent, protocol v1)')}${img(shots[1], 'ACP v2 (Fixture v2, protocol auto)')}</body>`,
  );
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(join(ARTIFACTS, 'protocol-v1-v2-side-by-side.png'), await side.screenshot({ fullPage: true }));
  await side.close();
});
