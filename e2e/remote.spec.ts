import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { test, expect, type Page } from '@playwright/test';
import { agentProtocol, ARTIFACTS, FIXTURE_AGENT, ROOT, send, startHost, startSession, type RunningHost } from './fixtures/host';

/*
 * Remote agents (issue 26) through the UI: the fixture agent behind `acp-desktop agent-server`
 * (the bridge, a separate process), connected over WebSocket or Streamable HTTP on loopback.
 */

const TOKEN = 'e2e-bridge-token-0123456789abcdef';

interface Bridge {
  url: string;
  port: number;
  process: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/** Starts `acp-desktop agent-server` with the fixture agent (on `port`, or a free one). */
async function startBridge(port = 0): Promise<Bridge> {
  const child = spawn(
    process.execPath,
    [join(ROOT, 'out/main/cli.js'), 'agent-server', '--port', String(port), '--token', TOKEN, '--', process.execPath, FIXTURE_AGENT, '--delay', '20'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (output += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (output += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bridge did not start:\n${output}`)), 15_000);
    child.stdout!.on('data', () => {
      const match = /agent server at (\S+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`bridge exited with ${code}:\n${output}`)));
  });
  return {
    url,
    port: Number(new URL(url).port),
    process: child,
    output: () => output,
    // SIGTERM: the bridge closes every connection at once and stops its agent processes.
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

function remoteSettings(url: string) {
  return {
    agents: [{ id: 'remote', name: 'Remote Fixture', url, headers: { Authorization: `Bearer ${TOKEN}` } }],
    agentOverrides: { remote: { protocol: agentProtocol() } },
  };
}

async function openApp(page: Page, host: RunningHost): Promise<void> {
  await page.goto(host.url);
  await expect(page.getByRole('heading', { name: 'Agents' })).toBeVisible();
}

const transcript = (page: Page) => page.getByRole('log', { name: 'Transcript' });

const bridges: Bridge[] = [];
const hosts: RunningHost[] = [];
test.afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.stop()));
  await Promise.all(bridges.splice(0).map((bridge) => bridge.stop()));
});

test.describe('remote agents', () => {
  for (const scheme of ['ws', 'http'] as const) {
    test(`${scheme}: a full turn through the bridge with a permission and a diff; the header says where files and terminals live`, async ({ page }) => {
      const bridge = await startBridge();
      bridges.push(bridge);
      const host = await startHost({ settings: remoteSettings(bridge.url.replace(/^http/, scheme)) });
      hosts.push(host);
      await openApp(page, host);
      await startSession(page, 'Remote Fixture', host.workspace);
      const line = page.getByRole('group', { name: 'Remote agent' });
      await expect(line.getByLabel('Connection state')).toHaveText('Remote agent · connected');
      await expect(line).toContainText(
        "Runs on 127.0.0.1: the files it reads and edits and the commands it runs are on 127.0.0.1. This computer's files and terminals are not offered to it.",
      );
      await expect(page.getByText('remote · connected · 127.0.0.1')).toBeVisible();
      await send(page, 'permission');
      const card = transcript(page).getByRole('article', { name: 'Tool call: Edit src/app.ts' });
      const permission = card.getByRole('group', { name: 'Permission requested: Edit src/app.ts' });
      await expect(permission).toBeVisible();
      await expect(card.getByRole('group', { name: /Diff of .*app\.ts/ }).locator('.monaco-diff-editor')).toBeVisible();
      if (scheme === 'ws') await page.screenshot({ path: join(ARTIFACTS, 'remote-permission-diff.png') });
      await permission.getByRole('button', { name: 'Allow once' }).click();
      await expect(transcript(page).getByText('Permission granted (allow-once); the edit is done.')).toBeVisible();
      await expect(page.getByLabel('Session status')).toHaveText('Idle');
    });
  }

  test('the bridge stopped mid-turn: a clear error ends the turn, the agent shows reconnecting, and the session continues once it is back', async ({
    page,
  }) => {
    let bridge = await startBridge();
    bridges.push(bridge);
    const host = await startHost({ settings: remoteSettings(bridge.url), env: { ACP_DESKTOP_REMOTE_BACKOFF_MS: '500,1000,1000,1000,1000,1000,1000,1000' } });
    hosts.push(host);
    await openApp(page, host);
    await startSession(page, 'Remote Fixture', host.workspace);
    await send(page, 'slow');
    await expect(transcript(page).getByText(/chunk 3/)).toBeVisible();
    await bridge.stop();
    await expect(transcript(page).getByText(/This turn was cut by the lost connection/)).toBeVisible();
    await expect(page.getByLabel('Session status')).not.toHaveText('Working');
    const line = page.getByRole('group', { name: 'Remote agent' });
    await expect(line.getByLabel('Connection state')).toHaveText(/reconnecting|offline/);
    await page.screenshot({ path: join(ARTIFACTS, 'remote-reconnecting.png') });
    bridge = await startBridge(bridge.port);
    bridges.push(bridge);
    await expect(line.getByLabel('Connection state')).toHaveText('Remote agent · connected', { timeout: 20_000 });
    await expect(transcript(page).getByText(/Reconnected; the session continues/)).toBeVisible();
    await send(page, 'back after the outage');
    await expect(transcript(page).getByText('back after the outage').last()).toBeVisible();
    await expect(page.getByLabel('Session status')).toHaveText('Idle');
  });

  test('Settings › Add a remote agent: an unencrypted address elsewhere is refused with why; a loopback one is added, its token kept secret @once', async ({
    page,
  }) => {
    const host = await startHost({ settings: { agents: [] } });
    hosts.push(host);
    await openApp(page, host);
    await page.getByRole('button', { name: 'Settings' }).click();
    const form = page.getByRole('region', { name: 'Add a remote agent' });
    await form.getByLabel('Name', { exact: true }).fill('Dev box');
    await form.getByLabel('URL', { exact: true }).fill('ws://10.0.0.5:7000/acp');
    await expect(form.getByRole('alert')).toContainText('not encrypted');
    await expect(form.getByRole('button', { name: 'Add remote agent' })).toBeDisabled();
    await form.getByLabel('URL', { exact: true }).fill('ws://127.0.0.1:7000/acp');
    await form.getByLabel(/Access token/).fill('s3cret-token-value');
    await form.getByRole('button', { name: 'Add remote agent' }).click();
    await expect(form.getByRole('status')).toContainText('Added Dev box.');
    await expect(page.getByText('remote · offline · 127.0.0.1')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'settings.json' })).not.toHaveValue(/s3cret-token-value/);
    await expect(page.getByRole('textbox', { name: 'settings.json' })).toHaveValue(/"secretHeaders"/);
  });
});
