import { expect, fixtureAgent, openApp, startHost, test } from './fixtures/host';

test('a malformed settings file gives a clear message, and the app still starts with the valid agents', async ({ page }) => {
  const host = await startHost({
    settings: { agents: [fixtureAgent('good', 'Good Agent'), { id: 'broken', name: 'Broken Agent' }] },
  });
  try {
    await openApp(page, host);
    await expect(page.getByRole('alert').filter({ hasText: 'agents[1].command' })).toBeVisible();
    await expect(page.getByText('Good Agent')).toBeVisible();
    await expect(page.getByText('Broken Agent')).toHaveCount(0);
  } finally {
    await host.stop();
  }
});

test('settings that are not JSON at all still let the app start', async ({ page }) => {
  const host = await startHost({ settings: '{ "agents": [ nope' });
  try {
    await openApp(page, host);
    await expect(page.getByRole('alert').filter({ hasText: 'settings.json is not valid JSON' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Agents' })).toBeVisible();
  } finally {
    await host.stop();
  }
});

test('the page without the token is refused', async ({ page }) => {
  const host = await startHost({});
  try {
    const response = await page.goto(host.url.replace(/\?token=.*/, ''));
    expect(response?.status()).toBe(401);
  } finally {
    await host.stop();
  }
});

test('a page whose token the restarted host no longer accepts says so instead of spinning', async ({ page }) => {
  const first = await startHost({ token: 'first-token-aaaaaaaaaaaaaaaaaaaaaaaaaaa' });
  const port = Number(new URL(first.url).port);
  try {
    await openApp(page, first);
    await first.stop();
    await expect(page.getByText('Connection lost; reconnecting…')).toBeVisible();
    const second = await startHost({ dataDir: first.dataDir, workspace: first.workspace, port, token: 'second-token-bbbbbbbbbbbbbbbbbbbbbbbbbb' });
    try {
      await expect(page.getByRole('alert').filter({ hasText: 'refused this page’s access token' })).toBeVisible({ timeout: 20_000 });
    } finally {
      await second.stop();
    }
  } finally {
    await first.stop();
  }
});
