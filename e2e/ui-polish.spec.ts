import { fixtureAgent, startHost } from './fixtures/host';
import { startRegistryServer, type RegistryServer } from './fixtures/registryServer';
import { expect, openApp, send, shot, startSession, test, transcript, waitIdle } from './ui-support';

test.describe('polish', () => {
  test('the tool card shows how its permission was answered: the option chosen, or automatically from a remembered choice', async ({
    page,
    host,
    problems,
  }) => {
    await openApp(page, host);
    await startSession(page, 'Fixture Agent', host.workspace);
    await send(page, 'permission');
    const cards = transcript(page).getByRole('article', { name: 'Tool call: Edit src/app.ts' });
    await cards.first().getByRole('button', { name: 'Always allow edits' }).click();
    await expect(cards.first().getByLabel('Permission answer')).toHaveText('Permission: Always allow edits (allow always)');
    await waitIdle(page);

    // The same kind again: answered from the remembered choice, and the card says so.
    await send(page, 'permission');
    await expect(cards).toHaveCount(2);
    await expect(cards.nth(1).getByLabel('Permission answer')).toHaveText('Permission: Always allow edits (allow always), answered automatically (remembered)');
    await waitIdle(page);
    await cards.nth(1).scrollIntoViewIfNeeded();
    await shot(page, 'tool-permission-remembered');

    await send(page, 'ghostpermission');
    const ghost = transcript(page).getByRole('article', { name: 'Tool call: Run rm -rf build' });
    await ghost.getByRole('button', { name: 'Do not run' }).click();
    await expect(ghost.getByLabel('Permission answer')).toHaveText('Permission: Do not run (reject once)');
    await expect(ghost.getByLabel('Permission answer')).toHaveClass(/rejected/);
    await waitIdle(page);

    // Asked again for the same call, then stopped while the request waited: the card says it was cancelled.
    await send(page, 'ghostpermission');
    await expect(ghost.getByRole('button', { name: 'Do not run' })).toBeVisible();
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect(ghost.getByLabel('Permission answer')).toHaveText('Permission cancelled');
    await waitIdle(page);
    expect(problems).toEqual([]);
  });
});

test('"Sign out" in the agent info where the agent offers logout, after a confirmation', async ({ page, problems }) => {
  const host = await startHost({ settings: { agents: [fixtureAgent('fixture', 'Fixture Agent', ['--logout'])] } });
  try {
    await openApp(page, host);
    await startSession(page, 'Fixture Agent', host.workspace);
    await page.getByRole('button', { name: 'Session info' }).click();
    const dialog = page.getByRole('dialog', { name: 'Agent and session' });
    await dialog.getByRole('button', { name: 'Sign out…' }).click();
    const confirm = dialog.getByRole('group', { name: 'Sign out of Fixture Agent?' });
    // Cancel keeps everything as it was.
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await dialog.getByRole('button', { name: 'Sign out…' }).click();
    await confirm.getByRole('button', { name: 'Sign out', exact: true }).click();
    await expect(dialog.getByRole('status')).toHaveText('Signed out.');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(transcript(page).getByText('Signed out. The agent may ask you to sign in again.')).toBeVisible();
    expect(problems).toEqual([]);
  } finally {
    await host.stop();
  }
});

test('no "Sign out" for an agent without logout', async ({ page, host, problems }) => {
  await openApp(page, host);
  await startSession(page, 'Fixture Agent', host.workspace);
  await page.getByRole('button', { name: 'Session info' }).click();
  const dialog = page.getByRole('dialog', { name: 'Agent and session' });
  await expect(dialog.getByRole('heading', { name: 'Capabilities' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: /Sign out/ })).toHaveCount(0);
  expect(problems).toEqual([]);
});

test.describe('polish · registry', () => {
  let registry: RegistryServer;
  test.beforeAll(async () => {
    registry = await startRegistryServer();
  });
  test.afterAll(async () => {
    await registry?.close();
  });

  test('the sidebar shows "Update available" for an installed registry agent with a newer version', async ({ page, problems }) => {
    registry.setAgentVersion('1.0.0');
    const host = await startHost({ env: { ACP_DESKTOP_REGISTRY_URL: registry.indexUrl, npm_config_registry: registry.npmRegistryUrl } });
    try {
      await openApp(page, host);
      await page.getByRole('button', { name: 'Browse the agent catalog…' }).click();
      const catalog = page.getByRole('dialog', { name: 'Agent catalog' });
      await expect(catalog.getByText(/^Live registry/)).toBeVisible();
      const card = catalog.getByRole('listitem', { name: 'Fixture (zip)' });
      await card.getByRole('button', { name: 'Install Fixture (zip)' }).click();
      await expect(card.getByText('Installed 1.0.0')).toBeVisible({ timeout: 20_000 });
      await catalog.getByRole('button', { name: 'Close the catalog' }).click();
      const sidebar = page.getByRole('navigation', { name: 'Agents and sessions' });
      await expect(sidebar.getByRole('button', { name: 'New session with Fixture (zip)' })).toBeVisible();
      await expect(sidebar.getByText('Update available')).toHaveCount(0);

      // The registry offers a newer version: after a refresh the sidebar says so.
      registry.setAgentVersion('1.1.0');
      await page.getByRole('button', { name: 'Browse the agent catalog…' }).click();
      await catalog.getByRole('button', { name: 'Refresh' }).click();
      await expect(card.getByText('Update available')).toBeVisible();
      await catalog.getByRole('button', { name: 'Close the catalog' }).click();
      const badge = sidebar.getByRole('button', { name: 'Update available for Fixture (zip): 1.1.0' });
      await expect(badge).toHaveText('Update available');

      // A new window reads the catalog at start when registry agents are installed.
      await page.reload();
      await expect(badge).toBeVisible();
      // The badge opens the catalog at that agent.
      await badge.click();
      await expect(catalog).toBeVisible();
      await expect(card.getByRole('button', { name: 'Update Fixture (zip) to 1.1.0' })).toBeVisible();
      expect(problems).toEqual([]);
    } finally {
      registry.setAgentVersion('1.0.0');
      await host.stop();
    }
  });
});
