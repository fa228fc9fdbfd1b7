import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, openApp, send, shot, startSession, test, transcript, waitIdle } from './ui-support';

/**
 * Checkpoints through the UI (issue 24): every turn of the fixture agent is snapshotted; whatever
 * wrote a file (the client's fs/write_text_file, a terminal command, the agent process itself) the
 * turn says how many files changed, the Review panel shows them with Keep / Reject per hunk, and
 * every message can restore the files to before it (files only), which can itself be undone.
 */
test.describe('checkpoints', () => {
  test('a turn’s changes in the Review panel: keep and reject single hunks; a reject after the file changed on disk is refused', async ({
    page,
    host,
    problems,
  }) => {
    test.setTimeout(120_000);
    const file = join(host.workspace, 'code.txt');
    writeFileSync(file, 'alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\n');
    await openApp(page, host);
    await startSession(page, 'Fixture Agent', host.workspace);
    await send(page, 'cpwrite code.txt alpha\\nBETA\\ngamma\\ndelta\\nepsilon\\nZETA\\nnew last line\\n');
    await expect(transcript(page).getByText('Wrote code.txt through the client.')).toBeVisible();
    await waitIdle(page);

    await transcript(page).getByRole('button', { name: '1 file changed' }).click();
    const panel = page.getByRole('complementary', { name: 'Side panel' });
    await expect(panel.getByRole('combobox', { name: 'Review scope' })).toHaveValue(/.+/);
    const files = panel.getByRole('list', { name: 'Changed files' });
    await expect(files.getByRole('button', { name: /code\.txt.*2 changes/ })).toBeVisible();
    const review = panel.getByRole('region', { name: 'Review of code.txt' });
    await expect(review.getByRole('group', { name: 'Diff of code.txt' }).getByLabel('3 lines added, 2 removed')).toBeVisible();
    const hunks = review.getByRole('list', { name: 'Changes in this file' }).getByRole('listitem');
    await expect(hunks).toHaveCount(2);
    await shot(page, 'checkpoints-review-panel');

    // Reject the first hunk: its old text is back on disk, the other stays.
    await hunks.first().getByRole('button', { name: 'Reject' }).click();
    await expect(hunks).toHaveCount(1);
    expect(readFileSync(file, 'utf8')).toBe('alpha\nbeta\ngamma\ndelta\nepsilon\nZETA\nnew last line\n');
    // Keep the other: it leaves the list, the file is kept as it is.
    await hunks.first().getByRole('button', { name: 'Keep' }).click();
    await expect(files.getByRole('button', { name: /code\.txt.*kept/ })).toBeVisible();
    await expect(hunks).toHaveCount(0);
    expect(readFileSync(file, 'utf8')).toBe('alpha\nbeta\ngamma\ndelta\nepsilon\nZETA\nnew last line\n');

    // The person edits the file meanwhile: a reject is refused and nothing is written. (The Keep
    // made the panel read the files again: the edit comes once that read is done, or the panel
    // would show the edited text and the reject would rightly go through.)
    await expect(panel.locator('.checkpoint-review')).toHaveAttribute('aria-busy', 'false');
    writeFileSync(file, 'alpha\nbeta\ngamma\ndelta\nepsilon\nZETA\nnew last line\nmine\n');
    await review.getByRole('button', { name: 'Reject file' }).click();
    await expect(panel.getByRole('alert')).toContainText('code.txt changed on disk since the Review panel showed it, so nothing was written');
    expect(readFileSync(file, 'utf8')).toBe('alpha\nbeta\ngamma\ndelta\nepsilon\nZETA\nnew last line\nmine\n');
    // Shown again as it is now, marked as edited since the turn.
    await expect(files.getByRole('button', { name: /code\.txt.*edited since/ })).toBeVisible();
    expect(problems).toEqual([]);
  });

  test('restore to before a message, for writes by the client, a terminal and the agent itself; the preview names the person’s edits; a restore is undone', async ({
    page,
    host,
    problems,
  }) => {
    test.setTimeout(120_000);
    const path = (name: string) => join(host.workspace, name);
    writeFileSync(path('notes.txt'), 'original notes\n');
    await openApp(page, host);
    await startSession(page, 'Fixture Agent', host.workspace);
    await send(page, 'cpwrite notes.txt notes by the agent\\n');
    await expect(transcript(page).getByText('Wrote notes.txt through the client.')).toBeVisible();
    await waitIdle(page);
    await send(page, 'terminal echo from-shell > shell.txt');
    await expect(transcript(page).getByText(/Exit code 0/)).toBeVisible();
    await waitIdle(page);
    await send(page, 'cpself self.txt written by the agent process\\n');
    await expect(transcript(page).getByText('Wrote self.txt myself.')).toBeVisible();
    await waitIdle(page);
    await expect(transcript(page).getByRole('button', { name: '1 file changed' })).toHaveCount(3);
    // The person edits a file the agent wrote.
    writeFileSync(path('notes.txt'), 'notes by the agent\nand by me\n');

    const messages = transcript(page).getByRole('article', { name: 'You' });
    await messages.nth(0).getByRole('button', { name: 'Restore files to before this message' }).click();
    const dialog = page.getByRole('dialog', { name: 'Restore files to before message 1' });
    await expect(dialog.getByText('Restores files only: the conversation with the agent is not rewound')).toBeVisible();
    const list = dialog.getByRole('list', { name: 'Files that will change' });
    await expect(list.getByRole('listitem')).toHaveText([
      /notes\.txt back to its earlier text edited by you since/,
      /self\.txt deleted \(it did not exist\)/,
      /shell\.txt deleted \(it did not exist\)/,
    ]);
    await expect(dialog.getByText(/1 of them edited by you since the agent’s last turn/)).toBeVisible();
    await shot(page, 'checkpoints-restore-preview');
    await dialog.getByRole('button', { name: 'Restore files' }).click();
    await expect(dialog).toBeHidden();

    const marker = transcript(page).getByRole('status').filter({ hasText: 'Files restored to before message 1' });
    await expect(marker).toContainText('notes.txt');
    expect(readFileSync(path('notes.txt'), 'utf8')).toBe('original notes\n');
    expect(() => readFileSync(path('shell.txt'))).toThrow();
    expect(() => readFileSync(path('self.txt'))).toThrow();

    // Undo the restore (a restore of a restore): everything is back as it was, the person's edit too.
    await marker.getByRole('button', { name: 'Undo this restore' }).click();
    const undo = page.getByRole('dialog', { name: 'Undo this restore' });
    await expect(undo.getByRole('list', { name: 'Files that will change' }).getByRole('listitem')).toHaveCount(3);
    await undo.getByRole('button', { name: 'Restore files' }).click();
    await expect(undo).toBeHidden();
    await expect(transcript(page).getByRole('status').filter({ hasText: 'Restore of message 1 undone' })).toBeVisible();
    expect(readFileSync(path('notes.txt'), 'utf8')).toBe('notes by the agent\nand by me\n');
    expect(readFileSync(path('shell.txt'), 'utf8')).toBe('from-shell\n');
    expect(readFileSync(path('self.txt'), 'utf8')).toBe('written by the agent process\n');

    // The next message tells the agent what was restored (the fixture echoes what it got).
    await send(page, 'hello after the restores');
    await expect(transcript(page).getByText(/restored these files to how they were before the restore of message 1/)).toBeVisible();
    expect(problems).toEqual([]);
  });
});
