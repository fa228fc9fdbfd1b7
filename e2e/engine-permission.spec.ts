import { shot } from './fixtures/host';
import { engineTest as test, expect, openSession, send, transcript } from './engine-support';

test('a permission request: shown with the agent’s options; the answer reaches the agent', async ({ page, host }) => {
  await openSession(page, host);
  await send(page, 'permission');
  const card = page.getByRole('group', { name: 'Permission requested: Edit src/app.ts' });
  await expect(card).toBeVisible();
  for (const name of ['Allow once', 'Always allow edits', 'Reject', 'Never allow edits']) {
    await expect(card.getByRole('button', { name })).toBeVisible();
  }
  await expect(page.getByLabel('Session status')).toHaveText('Waiting for you');
  await shot(page, 'engine-permission-asked');
  await card.getByRole('button', { name: 'Allow once' }).click();
  await expect(transcript(page).getByText('Permission granted (allow-once); the edit is done.')).toBeVisible();
  await expect(card).toBeHidden();
  await expect(page.getByLabel('Session status')).toHaveText('Idle');
});

test('"always" is remembered: the next request of that kind is answered without asking', async ({ page, host }) => {
  await openSession(page, host);
  await send(page, 'permission');
  await page.getByRole('group', { name: 'Permission requested: Edit src/app.ts' }).getByRole('button', { name: 'Always allow edits' }).click();
  await expect(transcript(page).getByText('Permission granted (allow-always); the edit is done.')).toHaveCount(1);
  await send(page, 'permission');
  await expect(transcript(page).getByText('Permission granted (allow-always); the edit is done.')).toHaveCount(2);
  await expect(page.getByRole('group', { name: /Permission requested/ })).toHaveCount(0);
  await expect(page.getByLabel('Session status')).toHaveText('Idle');
  await shot(page, 'engine-permission-remembered');
});

test('a request for a tool call the agent never announced is shown from the request itself', async ({ page, host }) => {
  await openSession(page, host);
  await send(page, 'ghostpermission');
  const card = page.getByRole('group', { name: 'Permission requested: Run rm -rf build' });
  await expect(card).toBeVisible();
  await card.getByRole('button', { name: 'Do not run' }).click();
  await expect(transcript(page).getByText('Ghost answer: no')).toBeVisible();
});

test('options of a kind this app does not know are still offered and answered', async ({ page, host }) => {
  await openSession(page, host);
  await send(page, 'permfuture');
  const card = page.getByRole('group', { name: 'Permission requested: Engage warp drive' });
  await card.getByRole('button', { name: 'Maybe later' }).click();
  await expect(transcript(page).getByText('Future permission: maybe')).toBeVisible();
});
