import { mkdtempSync, writeFileSync } from 'node:fs';
import type { Locator } from '@playwright/test';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { turnEvents } from '../src-main/testing/longLog';
import { startHost } from './fixtures/host';
import { expect, FIXTURE, seedSession, send, shot, startSession, test, transcript } from './ui-support';

// Issue 23: a tab switched away and back is the view that was left (the last few session views
// stay mounted out of the document): an opened diff editor, the Review panel's editor, a running
// terminal, the scroll position and the draft. A hidden tab's view matches no locator.

/** Marks an element, so the same element (not a rebuilt one) can be recognized after a switch. */
const mark = (locator: Locator, name: string) => locator.evaluate((element, value) => element.setAttribute('data-e2e-mark', value), name);
const TURNS = 60;

test('a tab switched away and back keeps its opened diff editor, Review editor, terminal, scroll position and draft', async ({ page, problems }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'acp-e2e-tabs-'));
  const workspace = mkdtempSync(join(tmpdir(), 'acp-e2e-ws-'));
  seedSession(dataDir, 's_kept', workspace, Array.from({ length: TURNS }, (_, turn) => turnEvents(turn, ' [kept]')).flat());
  const host = await startHost({ dataDir, workspace, settings: { agents: [FIXTURE] } });
  try {
    await page.goto(host.url);
    const log = transcript(page);
    await expect(log).toContainText(`Question ${TURNS - 1} [kept]`);

    // The first tab: a diff opened in the newest tool card, the Review panel's editor, a draft.
    const card = log.getByRole('article', { name: `Tool call: Edit file${(TURNS - 1) % 50}.ts` }).last();
    await card.getByRole('button', { name: 'Open in editor' }).click();
    const cardEditor = card.locator('.monaco-diff-editor');
    await expect(cardEditor.locator('.editor.modified .view-lines')).toContainText(`const a = ${TURNS}`);
    await mark(cardEditor, 'card-editor');
    const panel = page.getByRole('complementary', { name: 'Side panel' });
    await panel.getByRole('tab', { name: 'Review' }).click();
    // The Review's diff is below the list of 50 files: no editor is built for it until it is in
    // view (round 8: it cost every session shown ~200 ms of the page's CPU that nobody saw).
    const reviewDiff = panel.getByRole('group', { name: /^Diff of / });
    await expect(reviewDiff.getByText('Diff loads when shown…')).toBeAttached();
    await page.waitForTimeout(600);
    await expect(panel.locator('.monaco-diff-editor')).toHaveCount(0);
    await reviewDiff.scrollIntoViewIfNeeded();
    const reviewEditor = panel.locator('.monaco-diff-editor');
    await expect(reviewEditor.locator('.view-lines').first()).toContainText('const a =');
    // Below the list at its own height (it was squeezed to its 2 px of borders by the list).
    expect((await reviewDiff.boundingBox())?.height).toBeGreaterThan(40);
    await shot(page, 'tab-switch-review-diff-below-list');
    await mark(reviewEditor, 'review-editor');
    const composer = page.getByRole('textbox', { name: 'Message', exact: true });
    await composer.fill('a half-written question');

    // The second tab: a live session with a terminal that keeps running.
    await startSession(page, 'Fixture Agent', host.workspace);
    await send(page, 'terminal echo TERMINAL-KEPT; sleep 20');
    const terminal = log.getByRole('region', { name: /Terminal: sh -c echo TERMINAL-KEPT/ });
    await expect(terminal.locator('.xterm-rows')).toContainText('TERMINAL-KEPT');
    await expect(terminal.getByRole('status')).toHaveText('Running');
    await mark(terminal.locator('.xterm'), 'terminal');
    // The first tab's view is kept but not in the document: nothing of it matches.
    await expect(page.getByText(`Question ${TURNS - 1} [kept]`)).toHaveCount(0);
    await expect(page.locator('.monaco-diff-editor')).toHaveCount(0);
    await expect(page.locator('[data-e2e-mark]')).toHaveCount(1);
    await expect(page.getByRole('log', { name: 'Transcript' })).toHaveCount(1);

    const tabs = page.getByRole('tablist', { name: 'Open sessions' }).getByRole('tab');
    // The switch recolours its tab and session link at once: no fade repainting the page for
    // frames after it (round 8). Counted from the pointer's arrival on the tab (its hover).
    await page.evaluate(() => {
      const counted = window as unknown as { transitions: number };
      counted.transitions = 0;
      document.addEventListener('transitionrun', () => counted.transitions++, { capture: true });
    });
    await tabs.nth(0).click();
    await expect(log).toContainText(`Question ${TURNS - 1} [kept]`);
    expect(await page.evaluate(() => (window as unknown as { transitions: number }).transitions)).toBe(0);
    // The same editors, not rebuilt ones: the opened diff is still open, the Review's is there at once.
    await expect(card.locator('.monaco-diff-editor[data-e2e-mark="card-editor"]')).toHaveCount(1);
    await expect(panel.locator('.monaco-diff-editor[data-e2e-mark="review-editor"]')).toHaveCount(1);
    await expect(page.getByText('Diff loads when shown…')).toHaveCount(0);
    await expect(composer).toHaveValue('a half-written question');
    await expect(composer).toBeFocused();
    await expect(page.locator('.xterm')).toHaveCount(0);

    // The scroll position comes back exactly as left.
    await log.evaluate((element) => (element.scrollTop = Math.floor(element.scrollHeight / 2)));
    await page.waitForTimeout(200);
    const left = await log.evaluate((element) => ({ top: element.scrollTop, row: element.querySelector<HTMLElement>('.row')?.dataset.index }));
    await tabs.nth(1).click();
    await expect(terminal.locator('.xterm[data-e2e-mark="terminal"] .xterm-rows')).toContainText('TERMINAL-KEPT');
    await expect(terminal.getByRole('status')).toHaveText('Running');
    await shot(page, 'tab-switch-terminal-kept');
    await tabs.nth(0).click();
    await expect(log).toContainText('[kept]');
    const back = await log.evaluate((element) => ({ top: element.scrollTop, row: element.querySelector<HTMLElement>('.row')?.dataset.index }));
    expect(back).toEqual(left);
    await shot(page, 'tab-switch-scrolled-back');
    expect(problems).toEqual([]);
  } finally {
    await host.stop();
  }
});

test('a search hit in a tab whose view is kept hidden opens that tab at the entry', async ({ page, problems }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'acp-e2e-tabs-'));
  const workspace = mkdtempSync(join(tmpdir(), 'acp-e2e-ws-'));
  seedSession(dataDir, 's_other', workspace, [
    { kind: 'turn.started', turnId: 'o1', prompt: [{ type: 'text', text: 'a short other session' }] },
    { kind: 'turn.ended', turnId: 'o1', stopReason: 'end_turn' },
  ]);
  seedSession(dataDir, 's_kept', workspace, [
    { kind: 'turn.started', turnId: 'tp', prompt: [{ type: 'text', text: 'remember the pangolin' }] },
    { kind: 'turn.ended', turnId: 'tp', stopReason: 'end_turn' },
    ...Array.from({ length: TURNS }, (_, turn) => turnEvents(turn, ' [kept]')).flat(),
  ]);
  writeFileSync(join(dataDir, 'sessions', 'tabs.json'), JSON.stringify({ open: ['s_kept', 's_other'], active: 's_kept' }));
  const host = await startHost({ dataDir, workspace, settings: { agents: [FIXTURE] } });
  try {
    await page.goto(host.url);
    const log = transcript(page);
    await expect(log).toContainText(`Question ${TURNS - 1} [kept]`);
    const tabs = page.getByRole('tablist', { name: 'Open sessions' }).getByRole('tab');
    await tabs.nth(1).click();
    await expect(log).toContainText('a short other session');

    // The long session's view is kept (hidden, scrolled to its end); its first prompt is a search hit.
    await page.getByRole('button', { name: 'History' }).click();
    await page.getByRole('searchbox', { name: 'Search all sessions' }).fill('pangolin');
    await page.getByRole('list', { name: 'Search results' }).getByRole('button', { name: /you/ }).click();
    await expect(log.getByText('remember the pangolin', { exact: true })).toBeInViewport();
    await expect(tabs.nth(0)).toHaveAttribute('aria-selected', 'true');
    expect(problems).toEqual([]);
  } finally {
    await host.stop();
  }
});
