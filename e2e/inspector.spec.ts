import { readFileSync } from 'node:fs';
import { expect, fixtureAgent, openApp, send, shot, startHost, test } from './fixtures/host';

// What the test puts where only a secret can be: a value in the agent's environment that the
// settings mark secret (its name does not say so), and a key typed into the sign-in form. The
// fixture agent then leaks both into its answer (`echoenv`), as a careless agent might.
const ENV_SECRET = 'deploy-4b7d91e2c0';
const SIGN_IN_SECRET = 'sk-signin-e2e-91c3f7';

test.describe('protocol inspector', () => {
  test('shows a turn with a permission round trip, filters it, and exports it without the secrets', async ({ page }) => {
    const agent = {
      ...fixtureAgent('fixture', 'Fixture Agent', ['--auth-env', 'FIXTURE_KEY']),
      env: { FIXTURE_DEPLOY_ID: ENV_SECRET },
      secretEnv: ['FIXTURE_DEPLOY_ID'],
    };
    const host = await startHost({ settings: { agents: [agent] } });
    try {
      await openApp(page, host);
      await page.getByRole('button', { name: 'New session with Fixture Agent' }).click();
      const dialog = page.getByRole('dialog', { name: 'New session' });
      await dialog.getByLabel('Workspace folder').fill(host.workspace);
      await dialog.getByRole('button', { name: 'Start' }).click();
      // The sign-in form.
      const panel = page.getByRole('region', { name: 'Sign in to Fixture Agent' });
      await panel.getByRole('button', { name: 'API key' }).click();
      const form = panel.getByRole('form', { name: 'API key' });
      await form.getByLabel('Fixture API key').fill(SIGN_IN_SECRET);
      await form.getByRole('button', { name: 'Save and sign in' }).click();
      await expect(page.getByLabel('Session status')).toHaveText('Idle');

      await send(page, 'echoenv FIXTURE_DEPLOY_ID FIXTURE_KEY');
      const transcript = page.getByRole('log', { name: 'Transcript' });
      // The agent did leak both (the transcript shows what the agent said; the inspector must not).
      await expect(transcript.getByText(`FIXTURE_DEPLOY_ID=${ENV_SECRET} FIXTURE_KEY=${SIGN_IN_SECRET}`)).toBeVisible();
      await expect(page.getByLabel('Session status')).toHaveText('Idle');

      await send(page, 'permission');
      await page.getByRole('button', { name: 'Allow once' }).click();
      await expect(transcript.getByText(/Permission granted \(allow-once\)/)).toBeVisible();
      await expect(page.getByLabel('Session status')).toHaveText('Idle');

      // Opened from the session header.
      await page.getByRole('button', { name: 'Protocol inspector', exact: true }).click();
      const inspector = page.getByRole('dialog', { name: 'Protocol inspector: Fixture Agent' });
      await expect(inspector).toBeVisible();
      const messages = inspector.getByRole('list', { name: 'Messages' });
      // The full turn: the prompt, the agent's permission request, the app's answer (paired, with a latency), the turn's end.
      await expect(messages.getByRole('button', { name: /session\/prompt\s*request/ }).last()).toBeVisible();
      const permissionRequest = messages.getByRole('button', { name: /agent to app\s*session\/request_permission\s*request/ });
      await expect(permissionRequest).toBeVisible();
      const permissionAnswer = messages.getByRole('button', { name: /app to agent\s*answer to session\/request_permission\s*response.*\d+ ms/ });
      await expect(permissionAnswer).toBeVisible();
      await expect(messages.getByRole('button', { name: /answer to session\/prompt/ }).last()).toBeVisible();
      // Nothing on the page shows a secret.
      await expect(inspector.getByText(ENV_SECRET)).toHaveCount(0);
      expect(await inspector.textContent()).not.toContain(SIGN_IN_SECRET);

      // Filtered by method: the round trip alone.
      await inspector.getByLabel('Method').fill('request_permission');
      await expect(messages.getByRole('listitem')).toHaveCount(2);
      // Filtered by direction too: only the app's answer.
      await inspector.getByLabel('Direction').selectOption('out');
      await expect(messages.getByRole('listitem')).toHaveCount(1);
      await inspector.getByLabel('Direction').selectOption('both');
      await permissionRequest.click();
      const detail = inspector.getByRole('region', { name: 'Message' });
      await expect(detail.getByText('"session/request_permission"')).toBeVisible();
      await expect(detail.getByRole('button', { name: 'Copy JSON' })).toBeVisible();
      await shot(page, 'inspector-permission-round-trip');

      // Filtered by text: the prompt that asked for the values.
      await inspector.getByLabel('Method').fill('');
      await inspector.getByLabel('Text').fill('echoenv');
      await expect(messages.getByRole('listitem')).toHaveCount(1);
      // Export everything shown: the whole traffic, the leaked values redacted.
      await inspector.getByLabel('Text').fill('');
      await expect(messages.getByRole('button', { name: /answer to session\/prompt/ }).last()).toBeVisible();
      const [download] = await Promise.all([page.waitForEvent('download'), inspector.getByRole('button', { name: 'Export shown (.jsonl)' }).click()]);
      const text = readFileSync((await download.path())!, 'utf8');
      const lines = text.trim().split('\n');
      const parsed = lines.map((line) => JSON.parse(line) as { dir: string; msg: { method?: string } });
      expect(parsed.length).toBe(await messages.getByRole('listitem').count());
      expect(parsed.some((line) => line.msg.method === 'session/prompt')).toBe(true);
      expect(text).not.toContain(ENV_SECRET);
      expect(text).not.toContain(SIGN_IN_SECRET);
      expect(text).toContain('[redacted]');
      await inspector.getByRole('button', { name: 'Close' }).click();
      await expect(inspector).toBeHidden();

      // Also opened from the agent's row in the sidebar.
      await page.getByRole('button', { name: 'Protocol inspector for Fixture Agent' }).click();
      await expect(page.getByRole('dialog', { name: 'Protocol inspector: Fixture Agent' })).toBeVisible();
    } finally {
      await page.goto('about:blank').catch(() => undefined);
      await host.stop();
    }
  });
});

test("the turn's token usage on the turn and in the session's totals; the session info says why a control is missing", async ({ page, host }) => {
  await openApp(page, host);
  await page.getByRole('button', { name: 'New session with Fixture Agent' }).click();
  const dialog = page.getByRole('dialog', { name: 'New session' });
  await dialog.getByLabel('Workspace folder').fill(host.workspace);
  await dialog.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByLabel('Session status')).toHaveText('Idle');
  await send(page, 'usage');
  const transcript = page.getByRole('log', { name: 'Transcript' });
  await expect(transcript.getByText('1,200 tokens (1,000 in · 200 out)')).toBeVisible();
  await send(page, 'usage');
  await expect(transcript.getByText('1,200 tokens (1,000 in · 200 out)')).toHaveCount(2);

  await page.getByRole('button', { name: 'Session info' }).click();
  const info = page.getByRole('dialog', { name: 'Agent and session' });
  await expect(info.locator('dt:has-text("Tokens in turns") + dd')).toHaveText('2,400 tokens (2,000 in · 400 out) over 2 turns');
  const table = info.getByRole('table', { name: 'Why is a control missing?' });
  const rowOf = (control: string) => table.getByRole('row', { name: new RegExp(`^${control}`) });
  await expect(rowOf('Model picker and other session options')).toContainText('configOptions in the session answer');
  await expect(rowOf('Model picker and other session options')).toContainText('a model picker among them');
  await expect(rowOf('Attach images')).toContainText('promptCapabilities.image');
  await expect(rowOf('Attach images').getByRole('cell').last()).toHaveText(/^yes/);
  // The fixture agent (without --list) advertises no session deleting: the row says so and why.
  await expect(rowOf("Delete a session from the agent's list")).toContainText('sessionCapabilities.delete');
  await expect(rowOf("Delete a session from the agent's list").getByRole('cell').last()).toHaveText(/^no/);
  await table.scrollIntoViewIfNeeded();
  await shot(page, 'inspector-why-control-missing');
});

test('an error notice opens the inspector on the messages that led to it', async ({ page, host }) => {
  await openApp(page, host);
  await page.getByRole('button', { name: 'New session with Fixture Agent' }).click();
  const dialog = page.getByRole('dialog', { name: 'New session' });
  await dialog.getByLabel('Workspace folder').fill(host.workspace);
  await dialog.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByLabel('Session status')).toHaveText('Idle');
  await send(page, 'crash');
  const transcript = page.getByRole('log', { name: 'Transcript' });
  await expect(transcript.getByText(/The agent exited/).first()).toBeVisible();
  await transcript.getByRole('button', { name: 'Show the messages that led to this' }).click();
  const inspector = page.getByRole('dialog', { name: 'Protocol inspector: Fixture Agent' });
  // Filtered to this session and up to the notice; the prompt that crashed it is there.
  await expect(inspector.getByRole('button', { name: /^Up to \d\d:\d\d:\d\d/ })).toBeVisible();
  await expect(inspector.getByRole('list', { name: 'Messages' }).getByRole('button', { name: /session\/prompt\s*request/ })).toBeVisible();
  await shot(page, 'inspector-from-error-notice');
});
