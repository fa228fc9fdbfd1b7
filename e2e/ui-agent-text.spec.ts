import { expect, openApp, send, shot, startSession, test, transcript, waitIdle } from './ui-support';

// Issue 21.3 and 21.4: text an agent writes must not act as something else: a link whose
// address was removed opens nothing, and bidirectional overrides cannot reorder what a person
// approves.

test('a link whose unsafe address was removed is plain text: clicking it opens no page and runs nothing', async ({ page, host, problems }) => {
  await openApp(page, host);
  await startSession(page, 'Fixture Agent', host.workspace);
  await send(page, 'see [click me](javascript:alert(1)) and [the site](https://example.com/)');
  await waitIdle(page);
  const answer = transcript(page).getByRole('article', { name: 'Agent' }).last();
  await expect(answer).toContainText('click me');
  await expect(answer.getByRole('link', { name: 'the site' })).toHaveAttribute('href', 'https://example.com/');
  await expect(answer.getByRole('link', { name: 'click me' })).toHaveCount(0);
  const opened: string[] = [];
  page.context().on('page', (other) => opened.push(other.url()));
  page.on('dialog', (dialog) => {
    opened.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  const url = page.url();
  await answer.getByText('click me').click();
  // Nothing happens: wait a moment for a page that would open (a tab opens within milliseconds).
  await page.waitForTimeout(1000);
  expect(opened).toEqual([]);
  expect(page.url()).toBe(url);
  await expect(page.getByRole('heading', { name: 'Agents' })).toBeVisible();
  expect(problems).toEqual([]);
});

test('a tool call titled "Open \\u202Eexe.txt" reads as written on its card and in the permission prompt, the override shown', async ({
  page,
  host,
  problems,
}) => {
  await openApp(page, host);
  await startSession(page, 'Fixture Agent', host.workspace);
  await send(page, 'bidipermission');
  const card = transcript(page).getByRole('article', { name: 'Tool call: Open ⟨U+202E⟩exe.txt' });
  const prompt = card.getByRole('group', { name: 'Permission requested: Open ⟨U+202E⟩exe.txt' });
  await expect(prompt).toBeVisible();
  await expect(card.locator('.tool-title')).toHaveText('Open ⟨U+202E⟩exe.txt');
  await expect(prompt.locator('.permission-question')).toHaveText('Allow? Open ⟨U+202E⟩exe.txt');
  await expect(card.getByLabel('Command', { exact: true })).toHaveText('$ open ⟨U+202E⟩exe.txt');
  await expect(card.getByRole('list', { name: 'Locations' })).toContainText('⟨U+202E⟩exe.txt');
  await expect(card.getByLabel('Raw input')).toContainText('"command": "open ⟨U+202E⟩exe.txt"');
  await expect(page.locator('.attention-permission')).toContainText('Waiting for your permission: Open ⟨U+202E⟩exe.txt');
  // The marker is read out by name.
  await expect(prompt.getByRole('img', { name: 'hidden character: right-to-left override' })).toBeVisible();
  // On screen, "exe" is left of "txt" in every place the title and the command are shown.
  const order = await page.evaluate(() =>
    Array.from(document.querySelectorAll('.tool-title, .permission-question, .tool-command, .attention-permission, [aria-label="Raw input"]'), (element) => {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.textContent!.indexOf('exe.txt');
        if (at === -1) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + 3);
        const exe = range.getBoundingClientRect().left;
        range.setStart(node, at + 4);
        range.setEnd(node, at + 7);
        return exe < range.getBoundingClientRect().left ? 'exe before txt' : 'txt before exe';
      }
      return 'not found';
    }),
  );
  expect(order).toEqual(Array(5).fill('exe before txt'));
  // The option label with isolates shows them too, and answering works as before.
  const run = prompt.getByRole('group', { name: 'Options' }).getByRole('button').first();
  await expect(run).toHaveText('Run ⟨U+2067⟩it⟨U+2069⟩');
  await shot(page, 'bidi-permission');
  await run.click();
  await expect(transcript(page).getByText('Bidi answer: yes')).toBeVisible();
  await expect(card.locator('.tool-title')).toHaveText('Open ⟨U+202E⟩exe.txt');
  expect(problems).toEqual([]);
});
