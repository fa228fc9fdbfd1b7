import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, openApp, send, shot, startSession, test, transcript, waitIdle } from './ui-support';

// A 1×1 PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

test.describe('8 · composer', () => {
  test('slash commands: a keyboard-navigable list with descriptions and input hints', async ({ page, host, problems }) => {
    await openApp(page, host);
    await startSession(page, 'Fixture Agent', host.workspace);
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('/');
    const list = page.getByRole('listbox', { name: 'Commands' });
    const options = list.getByRole('option');
    await expect(options).toHaveCount(3);
    await expect(options.nth(0)).toContainText('/web');
    await expect(options.nth(0)).toContainText('Search the web for information');
    await expect(options.nth(0)).toContainText('query to search for');
    await expect(options.nth(0)).toHaveAttribute('aria-selected', 'true');
    await shot(page, 'slash-commands');
    await box.press('ArrowDown');
    await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
    await expect(box).toHaveAttribute('aria-activedescendant', (await options.nth(1).getAttribute('id'))!);
    await box.press('Enter');
    await expect(list).toBeHidden();
    await expect(box).toHaveValue('/test ');
    await box.fill('/pl');
    await expect(options).toHaveCount(1);
    await box.press('Tab');
    await expect(box).toHaveValue('/plan ');
    await expect(page.getByText('what to plan')).toBeVisible();
    await box.fill('/we');
    await box.press('Escape');
    await expect(list).toBeHidden();
    expect(problems).toEqual([]);
  });

  test('@ finds workspace files (not node_modules) and attaches them as resource links; chips are removable', async ({ page, host }) => {
    mkdirSync(join(host.workspace, 'docs'), { recursive: true });
    mkdirSync(join(host.workspace, 'node_modules', 'pkg'), { recursive: true });
    writeFileSync(join(host.workspace, 'docs', 'guide.md'), '# Guide\n');
    writeFileSync(join(host.workspace, 'docs', 'other.md'), '# Other\n');
    writeFileSync(join(host.workspace, 'node_modules', 'pkg', 'guide.js'), '');
    await openApp(page, host);
    await startSession(page, 'Fixture Agent', host.workspace);
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('look at @gui');
    const list = page.getByRole('listbox', { name: 'Files' });
    await expect(list.getByRole('option')).toHaveText(['docs/guide.md']);
    await box.press('Enter');
    const chips = page.getByRole('list', { name: 'Attachments' });
    await expect(chips.getByRole('listitem')).toHaveText(['docs/guide.md']);
    await expect(box).toHaveValue('look at ');
    await box.pressSequentially('@other');
    await list.getByRole('option', { name: /docs\/other\.md/ }).click();
    await expect(chips.getByRole('listitem')).toHaveCount(2);
    await chips.getByRole('button', { name: 'Remove docs/other.md' }).click();
    await expect(chips.getByRole('listitem')).toHaveCount(1);
    await box.press('Enter');
    await expect(transcript(page).getByText(`Attached: file://${join(host.workspace, 'docs', 'guide.md')}`)).toBeVisible();
    await expect(transcript(page).getByRole('article', { name: 'You' })).toContainText('guide.md');
    await expect(chips).toBeHidden();
  });

  test('images pasted or dropped become image blocks (the agent accepts images)', async ({ page, host }) => {
    await openApp(page, host);
    await startSession(page, 'Fixture Agent', host.workspace);
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.focus();
    const paste = (name: string) =>
      box.evaluate(
        (element, { data, name: fileName }) => {
          const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
          const transfer = new DataTransfer();
          transfer.items.add(new File([bytes], fileName, { type: 'image/png' }));
          element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
        },
        { data: PNG, name },
      );
    await paste('first.png');
    const chips = page.getByRole('list', { name: 'Attachments' });
    await expect(chips.getByRole('listitem')).toHaveText(['first.png']);
    await chips.getByRole('button', { name: 'Remove first.png' }).click();
    await expect(chips).toBeHidden();
    // Dropped onto the composer.
    await page.getByRole('form', { name: 'Compose a message' }).evaluate((form, data) => {
      const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], 'dropped.png', { type: 'image/png' }));
      form.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }, PNG);
    await expect(chips.getByRole('listitem')).toHaveText(['dropped.png']);
    await box.fill('what is in this picture?');
    await box.press('Enter');
    await expect(transcript(page).getByText('Attached: image')).toBeVisible();
    await expect(transcript(page).getByRole('article', { name: 'You' }).getByRole('img')).toBeVisible();
  });

  test('Enter sends, Shift+Enter adds a line; a message sent during a turn is queued visibly; Esc stops', async ({ page, host }) => {
    await openApp(page, host);
    await startSession(page, 'Fixture Agent', host.workspace);
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('first line');
    await box.press('Shift+Enter');
    await box.pressSequentially('second line');
    await expect(box).toHaveValue('first line\nsecond line');
    await box.press('Enter');
    await expect(transcript(page).getByRole('article', { name: 'You' })).toContainText('second line');
    await waitIdle(page);
    await send(page, 'slow');
    await expect(transcript(page).getByText(/chunk 2 /)).toBeVisible();
    await send(page, 'this waits for the turn');
    await expect(page.getByRole('list', { name: 'Queued messages' })).toContainText('this waits for the turn');
    await shot(page, 'queued-message');
    await box.focus();
    await box.press('Escape');
    await expect(transcript(page).getByText('Stopped')).toBeVisible();
    await waitIdle(page);
  });
});
