import { expect, leavePage, openApp, type RunningHost, send, startHost, test } from './fixtures/host';
import { startRegistryServer, type RegistryServer } from './fixtures/registryServer';

/**
 * The registry end to end, in Chromium against the browser host: a local registry on
 * 127.0.0.1 (never the CDN), catalog → install with the progress bar → session → update →
 * uninstall, and the bad cases shown as clear messages.
 */

let registry: RegistryServer;
let host: RunningHost;

test.beforeAll(async () => {
  registry = await startRegistryServer();
});
test.afterAll(async () => {
  await registry?.close();
});
test.beforeEach(async () => {
  registry.setAgentVersion('1.0.0');
  host = await startHost({ env: { ACP_DESKTOP_REGISTRY_URL: registry.indexUrl, npm_config_registry: registry.npmRegistryUrl } });
});
test.afterEach(async ({ page }) => {
  await leavePage(page);
  await host?.stop();
});

test('catalog → install with progress → session → update → uninstall', async ({ page }) => {
  await openApp(page, host);
  await page.getByRole('button', { name: 'Browse the agent catalog…' }).click();
  const catalog = page.getByRole('dialog', { name: 'Agent catalog' });
  await expect(catalog.getByText(/^Live registry, downloaded just now/)).toBeVisible();

  await catalog.getByLabel('Search agents').fill('slow download');
  const card = catalog.getByRole('listitem', { name: 'Fixture (slow download)' });
  await expect(card).toBeVisible();
  await expect(catalog.getByRole('listitem')).toHaveCount(1);
  await expect(card.getByText('Binary')).toBeVisible();
  await expect(card.locator('.agent-icon svg circle')).toHaveCount(1);

  await card.getByRole('button', { name: 'Install Fixture (slow download)' }).click();
  // The archive arrives over about two seconds: the bar shows bytes, total and speed.
  await expect(card.getByRole('progressbar', { name: 'Fixture (slow download) download' })).toBeVisible();
  await expect(card.getByRole('status')).toHaveText(/Downloading [\d.]+ [KM]?B of [\d.]+ [KM]?B/);
  await expect(card.getByText('Installed 1.0.0')).toBeVisible({ timeout: 20_000 });

  // Start a session from the catalog: the new-session dialog opens with the agent chosen.
  await card.getByRole('button', { name: 'Start a session with Fixture (slow download)' }).click();
  await expect(catalog).toBeHidden();
  const dialog = page.getByRole('dialog', { name: 'New session' });
  await dialog.getByLabel('Workspace folder').fill(host.workspace);
  await dialog.getByRole('button', { name: 'Start' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByLabel('Session status')).toHaveText('Idle');
  await send(page, 'hello from the registry');
  await expect(page.getByText('hello from the registry').last()).toBeVisible();

  // A newer version in the registry: the catalog offers the update.
  registry.setAgentVersion('1.1.0');
  await page.getByRole('button', { name: 'Browse the agent catalog…' }).click();
  await catalog.getByRole('button', { name: 'Refresh' }).click();
  await catalog.getByLabel('Search agents').fill('slow download');
  await expect(card.getByText('Update available')).toBeVisible();
  await card.getByRole('button', { name: 'Update Fixture (slow download) to 1.1.0' }).click();
  await expect(card.getByText('Installed 1.1.0')).toBeVisible({ timeout: 20_000 });
  await expect(card.getByText('Update available')).toHaveCount(0);

  // Uninstall asks first, then the agent leaves the catalog's installed state and the sidebar.
  await card.getByRole('button', { name: 'Uninstall Fixture (slow download)' }).click();
  await card.getByRole('group', { name: 'Uninstall Fixture (slow download)?' }).getByRole('button', { name: 'Uninstall' }).click();
  await expect(card.getByRole('button', { name: 'Install Fixture (slow download)' })).toBeVisible();
  await expect(card.getByText(/^Installed/)).toHaveCount(0);
  await catalog.getByRole('button', { name: 'Close the catalog' }).click();
  await expect(page.getByRole('button', { name: 'New session with Fixture (slow download)' })).toHaveCount(0);
});

test('a catalog pin npm no longer has: the card names the version npm installed', async ({ page }) => {
  test.setTimeout(120_000);
  await openApp(page, host);
  await page.getByRole('button', { name: 'Browse the agent catalog…' }).click();
  const catalog = page.getByRole('dialog', { name: 'Agent catalog' });
  await catalog.getByLabel('Search agents').fill('pin gone');
  const card = catalog.getByRole('listitem', { name: 'Fixture (npx, pin gone)' });
  await card.getByRole('button', { name: 'Install Fixture (npx, pin gone)' }).click();
  // Pinned 1.1.9, which npm does not have: 1.2.0 runs, and the badge says so.
  const badge = card.getByText(/^Installed /);
  await expect(badge).toHaveText('Installed 1.2.0', { timeout: 60_000 });
  await expect(badge).toHaveAttribute('title', /The catalog's 1\.1\.9 is no longer on npm: 1\.2\.0 was installed/);
  await expect(card.getByText('Update available')).toHaveCount(0);
});

test('bad archives, a missing download and a script in an icon are handled clearly', async ({ page }) => {
  await openApp(page, host);
  await page.getByRole('button', { name: 'Browse the agent catalog…' }).click();
  const catalog = page.getByRole('dialog', { name: 'Agent catalog' });
  await expect(catalog.getByText(/^Live registry/)).toBeVisible();

  const cases: [string, RegExp][] = [
    ['Bad: zip-slip', /refused: the entry "\.\.\/\.\.\/evil\.txt" climbs out of the folder/],
    ['Bad: 404', /HTTP 404/],
    ['Bad: truncated', /cut off after/],
    ['Bad: archive without cmd', /does not contain its command/],
    ['Bad: tar link outside', /links outside the folder/],
  ];
  for (const [name, message] of cases) {
    const card = catalog.getByRole('listitem', { name });
    await card.getByRole('button', { name: `Install ${name}` }).click();
    await expect(card.getByRole('alert')).toHaveText(message, { timeout: 20_000 });
    await expect(card.getByRole('button', { name: `Install ${name}` })).toBeEnabled();
  }

  const other = catalog.getByRole('listitem', { name: 'Only for another platform' });
  await expect(other.getByText(/^Not available for /)).toBeVisible();
  await expect(other.getByRole('button', { name: 'Install Only for another platform' })).toBeDisabled();

  // The icon with a script shows as a plain shape; nothing ran.
  const icon = catalog.getByRole('listitem', { name: 'Bad: icon with a script' }).locator('.agent-icon');
  await expect(icon.locator('svg rect')).toHaveCount(1);
  await expect(icon.locator('script, image, [onload], [onclick]')).toHaveCount(0);
  expect(await page.evaluate(() => (window as { alerted?: boolean }).alerted ?? false)).toBe(false);
});

test('offline: the bundled snapshot is shown with the reason', async ({ page }) => {
  await host.stop();
  host = await startHost({ env: { ACP_DESKTOP_REGISTRY_URL: 'http://127.0.0.1:9/registry.json' } });
  await openApp(page, host);
  await page.getByRole('button', { name: 'Browse the agent catalog…' }).click();
  const catalog = page.getByRole('dialog', { name: 'Agent catalog' });
  await expect(catalog.getByText(/^Registry snapshot bundled with the app/)).toBeVisible();
  await expect(catalog.getByRole('alert').first()).toHaveText(/Could not reach the registry at http:\/\/127\.0\.0\.1:9\/registry\.json/);
  await expect(catalog.getByRole('listitem', { name: 'Gemini CLI' })).toBeVisible();
});

test('no Node.js on the machine: download it into the app folder, then install an npm agent', async ({ page }) => {
  // Unpacking Node.js and running npm install take a while on a loaded 2-core machine.
  test.setTimeout(180_000);
  await host.stop();
  host = await startHost({
    env: {
      PATH: '/nonexistent',
      ACP_DESKTOP_REGISTRY_URL: registry.indexUrl,
      ACP_DESKTOP_NODE_MIRROR: registry.nodeMirrorUrl,
      npm_config_registry: registry.npmRegistryUrl,
    },
  });
  await openApp(page, host);
  await page.getByRole('button', { name: 'Browse the agent catalog…' }).click();
  const catalog = page.getByRole('dialog', { name: 'Agent catalog' });
  const notice = catalog.getByRole('group', { name: 'Node.js for npm agents' });
  await expect(notice).toContainText('Node.js was not found on this machine');
  await catalog.getByLabel('Search agents').fill('Fixture (npx)');
  const card = catalog.getByRole('listitem', { name: 'Fixture (npx)' });
  await expect(card.getByRole('button', { name: 'Install Fixture (npx)' })).toBeDisabled();

  await notice.getByRole('button', { name: 'Download Node.js into the app’s folder' }).click();
  await expect(notice).toBeHidden({ timeout: 30_000 });
  await card.getByRole('button', { name: 'Install Fixture (npx)' }).click();
  await expect(card.getByText('Installed 1.0.0')).toBeVisible({ timeout: 60_000 });
});
