import type { AppState } from '../../src-shared/ipc/appState';
import { appStateCache } from './appStateCache';
import { firstPaintBlock } from './firstPaintFile';
import { shellPaintBlock, stateKey } from './shellPaint';

/** What the browser host puts in index.html before the page's root (issue 23: open, cold start). */
export interface PageStart {
  markup: string;
  /** The palette of the rows in it, for `<html data-theme>`; null: none. */
  theme: 'light' | 'dark' | null;
  /** Run the app's entry after the first frame: there is something to paint first. */
  deferEntry: boolean;
}

/**
 * The app state the page last had (`appStateCache.ts`: its agent list, sessions and tabs, drawn
 * as soon as its script runs), the shell the page drew from it (`shellPaint.ts`: painted before
 * that) and the shown session's first paint (`firstPaintFile.ts`: its newest rows, painted before
 * that too), each only while it still holds.
 */
export async function pageStart(dataDir: string, now: Pick<AppState, 'defaultCwd'> | null = null): Promise<PageStart | null> {
  const [paint, app] = await Promise.all([firstPaintBlock(dataDir), appStateCache(dataDir, now)]);
  const shell = app ? await shellPaintBlock(dataDir, app) : null;
  if (!paint && !app) return null;
  const state = app ? `<script type="application/json" id="app-state-cache" data-key="${stateKey(app)}">${app}</script>` : '';
  return {
    markup: `${state}${shell?.markup ?? ''}${paint?.markup ?? ''}`,
    theme: paint?.theme ?? shell?.theme ?? null,
    deferEntry: paint !== null || shell !== null,
  };
}
