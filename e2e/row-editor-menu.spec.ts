import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeV1Update } from '../src-main/acp/decode/v1Update';
import { turnEvents } from '../src-main/testing/longLog';
import { startHost } from './fixtures/host';
import { expect, FIXTURE, seedSession, shot, test, transcript } from './ui-support';

// Transcript rows are contained (`.row { contain: content }`, issue 23 round 5: a row that only
// moves is not painted again). Paint containment clips a row's content to its box, and Monaco
// draws its menus inside the editor's element: the inline diff's "Copy deleted lines" menu, opened
// from the last deleted line near the row's bottom edge, was cut there. (The diff editor loads no
// hover or suggestion feature and is read-only, so that menu is the widget that can leave the editor.)

test('a Monaco menu opened in a transcript row’s diff editor is not cut at the row’s edge', async ({ page, problems }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'acp-e2e-row-menu-'));
  const workspace = mkdtempSync(join(tmpdir(), 'acp-e2e-ws-'));
  seedSession(dataDir, 's_menu', workspace, [
    ...Array.from({ length: 4 }, (_, turn) => turnEvents(turn, ' [menu]')).flat(),
    { kind: 'turn.started', turnId: 'tz', prompt: [{ type: 'text', text: 'drop the last lines' }] },
    decodeV1Update({ sessionUpdate: 'tool_call', toolCallId: 'cz', title: 'Edit tail.ts', kind: 'edit', status: 'in_progress' }),
    decodeV1Update({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'cz',
      status: 'completed',
      content: [
        { type: 'diff', path: `${workspace}/tail.ts`, oldText: 'const x = 1;\nconst y = 2;\nold one;\nold two;\n', newText: 'const x = 1;\nconst y = 2;\n' },
      ],
    }),
    { kind: 'turn.ended', turnId: 'tz', stopReason: 'end_turn' },
  ]);
  const host = await startHost({ dataDir, workspace, settings: { agents: [FIXTURE] } });
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(host.url);
    const card = transcript(page).getByRole('article', { name: 'Tool call: Edit tail.ts' });
    await card.getByRole('button', { name: 'Open in editor' }).click();
    const editor = card.getByRole('group', { name: /^Diff of .*tail\.ts$/ }).first();
    await card.getByRole('button', { name: 'Inline' }).click();
    await expect(editor.locator('.editor.modified')).toContainText('old two;');

    // The deleted lines are a view zone below the last line: the mouse over the last one shows
    // Monaco's light bulb in its margin (neither has a role), whose press opens the menu.
    const zone = editor.locator('.editor.modified .view-zones > div').first();
    await expect(zone).toBeVisible();
    const box = (await zone.boundingBox())!;
    await page.mouse.move(box.x + 200, box.y + box.height - 5);
    await page.mouse.move(box.x + 210, box.y + box.height - 5);
    const bulb = editor.locator('.lightbulb-glyph');
    await expect(bulb).toBeVisible();
    const glyph = (await bulb.boundingBox())!;
    await page.mouse.move(glyph.x + glyph.width / 2, glyph.y + glyph.height / 2);
    await page.mouse.down();
    await page.mouse.up();
    const menu = page.getByRole('menu');
    await expect(menu.getByRole('menuitem', { name: 'Copy deleted line (4)' })).toBeVisible();
    await shot(page, 'row-editor-menu');

    // The menu reaches past the row's bottom edge (else this would prove nothing), lies inside the
    // viewport, and each of its corners is the menu, not what is behind it.
    const row = (await card.evaluate((element) => element.closest('.row')!.getBoundingClientRect().toJSON())) as DOMRect;
    const shown = (await menu.boundingBox())!;
    expect(shown.y + shown.height).toBeGreaterThan(row.bottom);
    expect(shown.y).toBeGreaterThanOrEqual(0);
    expect(shown.y + shown.height).toBeLessThanOrEqual(800);
    const corners = await menu.evaluate((element) => {
      const r = element.getBoundingClientRect();
      const root = element.getRootNode() as Document | ShadowRoot;
      return [
        [r.left + 2, r.top + 2],
        [r.right - 2, r.top + 2],
        [r.left + 2, r.bottom - 2],
        [r.right - 2, r.bottom - 2],
      ].map(([x, y]) => element.contains(root.elementFromPoint(x, y)));
    });
    expect(corners).toEqual([true, true, true, true]);
    expect(problems).toEqual([]);
  } finally {
    await host.stop();
  }
});
