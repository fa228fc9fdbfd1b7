import { shot } from './fixtures/host';
import { engineTest as test, expect, openSession, send, tempFile, transcript } from './engine-support';

test.describe('agent sign-in', () => {
  test.use({ agentArgs: ['--auth'] });
  test('an `agent` method: one click, then the session connects', async ({ page, host }) => {
    await openSession(page, host, 'Waiting for you');
    const panel = page.getByRole('region', { name: 'Sign in to Fixture Agent' });
    await expect(panel).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Log in with Fixture' })).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Sign in in a terminal' })).toBeVisible();
    await expect(panel.getByText('a sign-in method of type “x_future_auth” that this app cannot use yet')).toBeVisible();
    await shot(page, 'engine-auth-methods');
    await panel.getByRole('button', { name: 'Log in with Fixture' }).click();
    await expect(panel).toBeHidden();
    await expect(page.getByLabel('Session status')).toHaveText('Idle');
    await send(page, 'hello after sign-in');
    await expect(transcript(page).getByText('hello after sign-in').last()).toBeVisible();
  });
});

test.describe('env_var sign-in', () => {
  test.use({ agentArgs: ['--auth-env', 'FIXTURE_KEY'] });
  test('asks for the key in a password field, restarts the agent with it, then connects', async ({ page, host }) => {
    await openSession(page, host, 'Waiting for you');
    const panel = page.getByRole('region', { name: 'Sign in to Fixture Agent' });
    await panel.getByRole('button', { name: 'API key' }).click();
    const form = panel.getByRole('form', { name: 'API key' });
    const input = form.getByLabel('Fixture API key');
    await expect(input).toHaveAttribute('type', 'password');
    await input.fill('sk-e2e-secret');
    await expect(form.getByText(/kept in memory only/)).toBeVisible();
    await shot(page, 'engine-auth-env-form');
    await form.getByRole('button', { name: 'Save and sign in' }).click();
    await expect(panel).toBeHidden();
    await expect(page.getByLabel('Session status')).toHaveText('Idle');
    await send(page, 'keyed hello');
    await expect(transcript(page).getByText('keyed hello').last()).toBeVisible();
  });
});

test.describe('terminal sign-in', () => {
  const credFile = tempFile('cred');
  test.use({ agentArgs: ['--auth', '--cred-file', credFile] });
  test('runs the agent’s sign-in in an interactive terminal; exit 0 connects the session', async ({ page, host }) => {
    await openSession(page, host, 'Waiting for you');
    const panel = page.getByRole('region', { name: 'Sign in to Fixture Agent' });
    await panel.getByRole('button', { name: 'Sign in in a terminal' }).click();
    const terminal = panel.getByRole('region', { name: /^Terminal: / });
    await expect(terminal).toBeVisible();
    await expect(terminal.getByText('Type the code 1234')).toBeVisible();
    await shot(page, 'engine-auth-terminal');
    await terminal.locator('.xterm').click();
    await page.keyboard.type('1234');
    await page.keyboard.press('Enter');
    await expect(panel).toBeHidden();
    await expect(page.getByLabel('Session status')).toHaveText('Idle');
    await send(page, 'after terminal sign-in');
    await expect(transcript(page).getByText('after terminal sign-in').last()).toBeVisible();
  });
});
