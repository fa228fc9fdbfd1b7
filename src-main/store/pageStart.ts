import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { AppState } from '../../src-shared/ipc/appState';
import { SESSION_ID_PATTERN } from '../../src-shared/ipc/sessionIdPattern';
import { APP_STATE_FILE, appStateCache } from './appStateCache';
import { firstPaintBlock, paintFile } from './firstPaintFile';
import { SHELL_FILE, shellPaintBlock, stateKey } from './shellPaint';

/** What the browser host puts in index.html before the page's root (issue 23: open, cold start). */
export interface PageStart {
  markup: string;
  /** The palette of the rows in it, for `<html data-theme>`; null: none. */
  theme: 'light' | 'dark' | null;
  /** Run the app's entry after the first frame: there is something to paint first. */
  deferEntry: boolean;
  /** The files it was made from, and `filesStamp` of them taken before they were read: the same stamp later, the same page start. */
  inputs?: string[];
  stamp?: string;
}

/**
 * The app state the page last had (`appStateCache.ts`: its agent list, sessions and tabs, drawn
 * as soon as its script runs), the shell the page drew from it (`shellPaint.ts`: painted before
 * that) and the shown session's first paint (`firstPaintFile.ts`: its newest rows, painted before
 * that too), each only while it still holds.
 */
export function pageStart(dataDir: string, now: Pick<AppState, 'defaultCwd'> | null = null): PageStart | null {
  const inputs = inputsOf(dataDir);
  const stamp = filesStamp(inputs);
  const paint = firstPaintBlock(dataDir);
  const app = appStateCache(dataDir, now);
  const shell = app ? shellPaintBlock(dataDir, app) : null;
  if (!paint && !app) return null;
  const state = app ? `<script type="application/json" id="app-state-cache" data-key="${stateKey(app)}">${app}</script>` : '';
  return {
    markup: `${state}${shell?.markup ?? ''}${paint?.markup ?? ''}`,
    theme: paint?.theme ?? shell?.theme ?? null,
    deferEntry: paint !== null || shell !== null,
    inputs,
    stamp,
  };
}

/** What a page start is read from: the tabs, the settings, the cached state, its shell, and the shown tab's log and first paint. */
function inputsOf(dataDir: string): string[] {
  const tabs = join(dataDir, 'sessions', 'tabs.json');
  const files = [tabs, join(dataDir, 'settings.json'), join(dataDir, APP_STATE_FILE), join(dataDir, SHELL_FILE)];
  try {
    const active = (JSON.parse(readFileSync(tabs, 'utf8')) as { active?: unknown }).active;
    if (typeof active === 'string' && SESSION_ID_PATTERN.test(active)) {
      const log = join(dataDir, 'sessions', `${active}.jsonl`);
      files.push(log, paintFile(log));
    }
  } catch {
    // No tabs (or a torn file): nothing shown is read from a session.
  }
  return files;
}

/** Each file's inode, size and time of change (`-` when missing): a rewrite (atomic: a new inode) or an append changes it. */
export function filesStamp(files: string[]): string {
  return files
    .map((file) => {
      const info = statSync(file, { bigint: true, throwIfNoEntry: false });
      return info ? `${info.ino}:${info.size}:${info.mtimeNs}` : '-';
    })
    .join(',');
}
