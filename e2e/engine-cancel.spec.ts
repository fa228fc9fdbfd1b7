import { shot } from './fixtures/host';
import { engineTest as test, expect, openSession, send, transcript } from './engine-support';

test('Stop while a permission waits: the request is withdrawn and the turn ends as stopped', async ({ page, host }) => {
  await openSession(page, host);
  await send(page, 'permission');
  const card = page.getByRole('group', { name: 'Permission requested: Edit src/app.ts' });
  await expect(card).toBeVisible();
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(card).toBeHidden();
  await expect(transcript(page).getByText('Stopped', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Session status')).toHaveText('Idle');
  await shot(page, 'engine-cancel-permission');
});

test('Stop keeps what the agent still sends before it answers `cancelled`', async ({ page, host }) => {
  await openSession(page, host);
  await send(page, 'lateupdates');
  await expect(transcript(page).getByText('Long task')).toBeVisible();
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(transcript(page).getByText('Stopped as asked.')).toBeVisible();
  await expect(transcript(page).getByText('Stopped', { exact: true })).toBeVisible();
});

test('Stop ends the turn even when the agent never answers', async ({ page, host }) => {
  test.setTimeout(60_000);
  await openSession(page, host);
  await send(page, 'stubborn');
  await expect(transcript(page).getByText('I will not stop.')).toBeVisible();
  await page.getByRole('button', { name: 'Stop' }).click();
  // The app waits a grace period (10 s in the app) for the agent's `cancelled`, then ends the turn itself.
  await expect(transcript(page).getByText('Stopped', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByLabel('Session status')).toHaveText('Idle');
  await send(page, 'after the stubborn one');
  await expect(transcript(page).getByText('after the stubborn one').last()).toBeVisible();
});
