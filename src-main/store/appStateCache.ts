import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppState } from '../../src-shared/ipc/appState';
import { writeFileAtomic } from './jsonFile';

/**
 * The app state as the page last had it (`app-state.json` in the data folder), for the browser
 * host to put in index.html (issue 23, cold start): the page draws the agent list, the sessions
 * and the tabs as soon as its script runs, instead of waiting for the host's core to load and
 * answer `app.state`; the answer replaces it a moment later. Only what stays true between runs
 * is kept (no agent is running, no notice), and it is used only while `settings.json` and
 * `sessions/tabs.json` are the files it was made with.
 *
 * Read by `serve` before its core loads: this module uses node's fs and nothing heavier.
 */

const VERSION = 1;
const FILE = 'app-state.json';

interface CacheFile {
  version: number;
  /** `settings.json` as it was (size and time), or null when there was none. */
  settings: string | null;
  /** `sessions/tabs.json`'s text, or null. */
  tabs: string | null;
  state: AppState;
}

async function settingsKey(dataDir: string): Promise<string | null> {
  try {
    const info = await stat(join(dataDir, 'settings.json'));
    return `${info.size}:${info.mtimeMs}`;
  } catch {
    return null;
  }
}

async function tabsText(dataDir: string): Promise<string | null> {
  try {
    return await readFile(join(dataDir, 'sessions', 'tabs.json'), 'utf8');
  } catch {
    return null;
  }
}

/** What of a state is still true when the app starts again: nothing running, nothing to tell. */
export function settledState(state: AppState): AppState {
  const { restoring: _restoring, ...rest } = state;
  return {
    ...rest,
    agents: state.agents.map(({ error: _error, ...agent }) => ({ ...agent, process: 'stopped' })),
    // A turn in progress did not survive the restart (the restore says what became of it).
    sessions: state.sessions.map((session) => (session.status === 'running' || session.status === 'waiting' ? { ...session, status: 'idle' } : session)),
    notices: [],
    ...(state.tabs.open.length > 0 ? { restoring: state.tabs.open.length } : {}),
  };
}

/** Saves the state for the next start's page. */
export async function saveAppStateCache(dataDir: string, state: AppState): Promise<void> {
  const file: CacheFile = { version: VERSION, settings: await settingsKey(dataDir), tabs: await tabsText(dataDir), state: settledState(state) };
  writeFileAtomic(join(dataDir, FILE), JSON.stringify(file));
}

/**
 * The saved state as JSON safe inside a `<script type="application/json">` (no `<` at all), or
 * null when there is none or the settings or tabs changed since it was saved.
 */
export async function appStateCache(dataDir: string): Promise<string | null> {
  try {
    const [text, settings, tabs] = await Promise.all([readFile(join(dataDir, FILE), 'utf8'), settingsKey(dataDir), tabsText(dataDir)]);
    const file = JSON.parse(text) as Partial<CacheFile>;
    if (file.version !== VERSION || file.settings !== settings || file.tabs !== tabs || !file.state || !Array.isArray(file.state.agents)) return null;
    return JSON.stringify(file.state).replace(/</g, '\\u003c');
  } catch {
    return null;
  }
}
