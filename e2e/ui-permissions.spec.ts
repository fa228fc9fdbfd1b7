import { startHost } from './fixtures/host';
import { expect, FIXTURE, openApp, send, shot, startSession, test, transcript, waitIdle } from './ui-support';

test.describe('6 · permissions and settings', () => {
  test('a card drawn before its permission request shows the full diff editor once it asks', async ({ page, host }) => {
    await openApp(page, host);
    await startSession(page, 'Fixture Agent', host.workspace);
    await send(page, 'latepermission');
    const card = transcript(page).getByRole('article', { name: 'Tool call: Edit src/app.ts' });
    const diff = card.getByRole('group', { name: /Diff of .*app\.ts/ });
    // Before the request: the light static diff of a transcript row.
    await expect(diff.getByRole('button', { name: 'Open in editor' })).toBeVisible();
    await expect(card.getByRole('group', { name: 'Permission requested: Edit src/app.ts' })).toBeVisible();
    // Asking: what is approved is shown in the editor without a click.
    await expect(diff.locator('.monaco-diff-editor')).toBeVisible();
    await card.getByRole('button', { name: 'Allow once' }).click();
    await expect(transcript(page).getByText('Permission granted (allow-once); the edit is done.')).toBeVisible();
    await expect(diff.locator('.monaco-diff-editor')).toBeVisible();
  });

  test('inline card on the tool call: options named by the agent, styled by kind, keyboard first; the edit stays visible', async ({ page, host, problems }) => {
    await openApp(page, host);
    await startSession(page, 'Fixture Agent', host.workspace);
    await send(page, 'permission');
    const card = transcript(page).getByRole('article', { name: 'Tool call: Edit src/app.ts' });
    const permission = card.getByRole('group', { name: 'Permission requested: Edit src/app.ts' });
    await expect(permission).toBeVisible();
    const options = permission.getByRole('group', { name: 'Options' }).getByRole('button');
    await expect(options).toHaveText(['Allow once', 'Always allow edits', 'Reject', 'Never allow edits']);
    await expect(options.nth(0)).toHaveClass(/option-allow_once/);
    await expect(options.nth(1)).toHaveClass(/option-allow_always/);
    await expect(options.nth(2)).toHaveClass(/option-reject_once/);
    await expect(options.nth(3)).toHaveClass(/option-reject_always/);
    // What is being approved is on screen: the diff and the raw input.
    await expect(card.getByRole('group', { name: /Diff of .*app\.ts/ }).locator('.monaco-diff-editor')).toBeVisible();
    await expect(card.getByLabel('Raw input')).toContainText('"edits": 1');
    await expect(page.getByText('Waiting for your permission: Edit src/app.ts')).toBeVisible();
    // Keyboard: the first option has the focus; arrows move it.
    await expect(options.nth(0)).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect(options.nth(1)).toBeFocused();
    await page.keyboard.press('ArrowLeft');
    await expect(options.nth(0)).toBeFocused();
    await shot(page, 'permission-card');
    // From the dock above the composer, "Review" brings the card back and focuses its first option.
    await page.getByRole('textbox', { name: 'Message' }).focus();
    await page.getByRole('button', { name: 'Review' }).click();
    await expect(options.nth(0)).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(permission).toBeHidden();
    await expect(transcript(page).getByText('Permission granted (allow-once); the edit is done.')).toBeVisible();
    await waitIdle(page);

    // A request for a call never announced still shows what would run.
    await send(page, 'ghostpermission');
    const ghost = transcript(page).getByRole('article', { name: 'Tool call: Run rm -rf build' });
    await expect(ghost.getByLabel('Command')).toHaveText('$ rm -rf build');
    await ghost.getByRole('button', { name: 'Do not run' }).click();
    await expect(transcript(page).getByText('Ghost answer: no')).toBeVisible();
    expect(problems).toEqual([]);
  });

  test('a pending request while the window is in the background: tab badge and a desktop notification', async ({ page, host }) => {
    await page.addInitScript(() => {
      const w = window as unknown as { notes: { title: string; body?: string }[]; hiddenForTest: boolean };
      w.notes = [];
      w.hiddenForTest = false;
      Object.defineProperty(document, 'hidden', { get: () => w.hiddenForTest });
      Object.defineProperty(document, 'visibilityState', { get: () => (w.hiddenForTest ? 'hidden' : 'visible') });
      document.hasFocus = () => !w.hiddenForTest;
      class FakeNotification {
        static permission = 'granted';
        static requestPermission = async () => 'granted';
        onclick: (() => void) | null = null;
        constructor(title: string, options?: { body?: string }) {
          w.notes.push({ title, body: options?.body });
        }
        close() {}
      }
      (window as unknown as { Notification: unknown }).Notification = FakeNotification;
    });
    await openApp(page, host);
    await startSession(page, 'Fixture Agent', host.workspace);
    await page.evaluate(() => ((window as unknown as { hiddenForTest: boolean }).hiddenForTest = true));
    await send(page, 'permission');
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { notes: unknown[] }).notes))
      .toEqual([{ title: 'Fixture Agent needs you', body: 'Permission: Edit src/app.ts' }]);
    await expect(page.getByRole('tab').first()).toHaveAccessibleDescription('Waiting for you, 1 waiting for you');
  });

  test('settings page: remembered "always" choices are listed and forgotten; settings.json is validated; theme', async ({ page }) => {
    const host = await startHost({ settings: { agents: [FIXTURE], alwaysAllow: { 'fixture:edit': 'allow_always', 'fixture:execute': 'reject_always' } } });
    try {
      await openApp(page, host);
      await page.getByRole('button', { name: 'Settings' }).click();
      await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
      const list = page.getByRole('list', { name: 'Remembered permission choices' });
      await expect(list.getByRole('listitem')).toHaveText([/Fixture Agent · edit · Always allow/, /Fixture Agent · execute · Always reject/]);
      await list.getByRole('button', { name: 'Forget Fixture Agent · edit · Always allow' }).click();
      await expect(list.getByRole('listitem')).toHaveCount(1);
      const editor = page.getByRole('textbox', { name: 'settings.json' });
      await expect(editor).not.toContainText('fixture:edit');
      expect(await editor.inputValue()).not.toContain('fixture:edit');

      // A broken file is refused with the reason.
      await editor.fill('{ "theme": "purple" }');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await expect(page.getByRole('alert')).toContainText('theme');
      await editor.fill('{ not json');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await expect(page.getByRole('alert')).toContainText('not valid JSON');
      await page.getByRole('button', { name: 'Revert' }).click();

      // Theme: follows the OS unless set; dark is applied at once.
      await page.getByRole('combobox', { name: 'Theme' }).selectOption('dark');
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
      await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
      await shot(page, 'settings-dark');
      await page.getByRole('combobox', { name: 'Theme' }).selectOption('system');
      // "System" follows the OS, live.
      await page.emulateMedia({ colorScheme: 'dark' });
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
      await page.emulateMedia({ colorScheme: 'light' });
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    } finally {
      await page.close();
      await host.stop();
    }
  });
});
