import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppState } from '../../src-shared/ipc/appState';
import { appStateCache } from './appStateCache';
import { refusedMarkup } from './firstPaintFile';
import { writeFileAtomic } from './jsonFile';

/**
 * The app's shell at its first paint (issue 23, cold start): the sidebar (agents, sessions) and
 * the tab strip as the page drew them from the cached app state (`appStateCache.ts`), as HTML
 * (`shell-paint.json`). The browser host puts it in index.html while that very cached state is
 * served with it, so the agent list and the tabs are on screen at the page's first paint instead
 * of after the app's script has run; the app removes it in the commit that draws its own. It is
 * a picture of the cached state, not of the last session: agents are not shown running, and
 * nothing the host has not said since is shown.
 *
 * Read by `serve` before its core loads: this module uses node's fs and nothing heavier.
 */

const VERSION = 1;
export const SHELL_FILE = 'shell-paint.json';

type Theme = 'light' | 'dark';

interface ShellFile {
  version: number;
  /** The cached app state it shows (`stateKey`): served only with that very state. */
  key: string;
  theme: Theme;
  html: string;
}

/** Names a served cached state (its JSON as served): the page sends it back with the shell it drew from it. */
export function stateKey(stateJson: string): string {
  return createHash('sha256').update(stateJson).digest('base64url');
}

/**
 * Saves the shell the page drew from the cached state named `key`, if that is still the state
 * the next page would be served (settings, tabs or the state changed since: not saved).
 */
export async function saveShellPaint(
  dataDir: string,
  shell: { key: string; theme: Theme; html: string },
  now: Pick<AppState, 'defaultCwd'> | null = null,
): Promise<{ saved: boolean; refused?: string }> {
  const refused = refusedMarkup(shell.html);
  if (refused) return { saved: false, refused };
  const state = appStateCache(dataDir, now);
  if (!state || stateKey(state) !== shell.key) return { saved: false };
  const file: ShellFile = { version: VERSION, key: shell.key, theme: shell.theme, html: shell.html };
  writeFileAtomic(join(dataDir, SHELL_FILE), JSON.stringify(file));
  return { saved: true };
}

/** The shell to put in index.html with the cached state `stateJson` (as served), or null. */
export function shellPaintBlock(dataDir: string, stateJson: string): { markup: string; theme: Theme } | null {
  try {
    const shell = JSON.parse(readFileSync(join(dataDir, SHELL_FILE), 'utf8')) as Partial<ShellFile>;
    if (shell.version !== VERSION || typeof shell.html !== 'string' || (shell.theme !== 'light' && shell.theme !== 'dark')) return null;
    if (shell.key !== stateKey(stateJson) || refusedMarkup(shell.html)) return null;
    return { markup: `<div id="first-paint-shell" aria-hidden="true" inert>${shell.html}</div>`, theme: shell.theme };
  } catch {
    return null;
  }
}
