import { appStateCache } from './appStateCache';
import { firstPaintBlock } from './firstPaintFile';

/** What the browser host puts in index.html before the page's root (issue 23: open, cold start). */
export interface PageStart {
  markup: string;
  /** The palette of the rows in it, for `<html data-theme>`; null: none. */
  theme: 'light' | 'dark' | null;
  /** Run the app's entry after the first frame: there are rows to paint first. */
  deferEntry: boolean;
}

/**
 * The app state the page last had (`appStateCache.ts`: its agent list, sessions and tabs, drawn
 * as soon as its script runs) and the shown session's first paint (`firstPaintFile.ts`: its
 * newest rows, painted before that), each only while it still holds.
 */
export async function pageStart(dataDir: string): Promise<PageStart | null> {
  const [paint, app] = await Promise.all([firstPaintBlock(dataDir), appStateCache(dataDir)]);
  if (!paint && !app) return null;
  const state = app ? `<script type="application/json" id="app-state-cache">${app}</script>` : '';
  return { markup: `${state}${paint?.markup ?? ''}`, theme: paint?.theme ?? null, deferEntry: paint !== null };
}
