import { expect, openApp, send, shot, startSession, test, transcript, waitIdle } from './ui-support';

test.describe('polish', () => {
  test('the tool card shows how its permission was answered: the option chosen, or automatically from a remembered choice', async ({ page, host, problems }) => {
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
    await expect(cards.nth(1).getByLabel('Permission answer')).toHaveText(
      'Permission: Always allow edits (allow always), answered automatically (remembered)',
    );
    await waitIdle(page);
    await cards.nth(1).scrollIntoViewIfNeeded();
    await shot(page, 'tool-permission-remembered');

    await send(page, 'ghostpermission');
    const ghost = transcript(page).getByRole('article', { name: 'Tool call: Run rm -rf build' });
    await ghost.getByRole('button', { name: 'Do not run' }).click();
    await expect(ghost.getByLabel('Permission answer')).toHaveText('Permission: Do not run (reject once)');
    await expect(ghost.getByLabel('Permission answer')).toHaveClass(/rejected/);
    await waitIdle(page);
    expect(problems).toEqual([]);
  });
});
