import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppState } from '../../src-shared/ipc/appState';
import { writeFileAtomic } from './jsonFile';

/**
 * The app state as the page last had it (`app-state.json` in the data folder), for the browser
 * host to put in index.html (issue 23, cold start): the page draws the agent list, the sessions
 * and the tabs as soon as its script runs, instead of waiting for the host's core to load and
 * answer `app.state`; the answer replaces it a moment later. Only what holds between runs is
 * kept (`settledState`), and it is used only while `settings.json` and `sessions/tabs.json` say
 * what they said when it was made.
 *
 * Read by `serve` before its core loads: this module uses node's fs and nothing heavier, and reads
 * synchronously (small files; see `firstPaintFile.ts`).
 */

const VERSION = 1;
export const APP_STATE_FILE = 'app-state.json';

interface CacheFile {
  version: number;
  /** `settings.json`'s content hash, or null when there was none. */
  settings: string | null;
  /** `sessions/tabs.json`'s text, or null. */
  tabs: string | null;
  state: AppState;
}

/** `settings.json`'s content as a hash (a rewrite with the same content is the same settings), or null. */
function settingsKey(dataDir: string): string | null {
  try {
    return createHash('sha256')
      .update(readFileSync(join(dataDir, 'settings.json')))
      .digest('base64url');
  } catch {
    return null;
  }
}

function tabsText(dataDir: string): string | null {
  try {
    return readFileSync(join(dataDir, 'sessions', 'tabs.json'), 'utf8');
  } catch {
    return null;
  }
}

/**
 * What of a state holds when the app starts again, in the shape of the host's first answer
 * before any tab is read back (core/tabRestore.ts), so that answer replaces it without a blink:
 * no agent running, no notice, no session open yet, every saved tab in its place as a
 * placeholder named as it was.
 */
export function settledState(state: AppState): AppState {
  const { restoring: _restoring, tabsNotBack: _notBack, ...rest } = state;
  const known = new Map<string, { title: string | null; agentName: string | null }>();
  for (const placeholder of state.tabsNotBack ?? []) known.set(placeholder.sessionId, placeholder);
  for (const session of state.sessions) known.set(session.sessionId, session);
  const open = state.tabs.open;
  return {
    ...rest,
    agents: state.agents.map(({ error: _error, ...agent }) => ({ ...agent, process: 'stopped' })),
    sessions: [],
    notices: [],
    ...(open.length > 0
      ? {
          restoring: open.length,
          tabsNotBack: open.map((sessionId) => ({ sessionId, title: known.get(sessionId)?.title ?? null, agentName: known.get(sessionId)?.agentName ?? null })),
        }
      : {}),
  };
}

/** Saves the state for the next start's page. */
export async function saveAppStateCache(dataDir: string, state: AppState): Promise<void> {
  const file: CacheFile = { version: VERSION, settings: settingsKey(dataDir), tabs: tabsText(dataDir), state: settledState(state) };
  writeFileAtomic(join(dataDir, APP_STATE_FILE), JSON.stringify(file));
}

/**
 * The saved state as JSON safe inside a `<script type="application/json">` (no `<` at all), or
 * null when there is none or the settings or tabs changed since it was saved. `now` is what this
 * run of the host says itself (the folder offered for new sessions may be another one today).
 */
export function appStateCache(dataDir: string, now: Pick<AppState, 'defaultCwd'> | null = null): string | null {
  try {
    const text = readFileSync(join(dataDir, APP_STATE_FILE), 'utf8');
    const settings = settingsKey(dataDir);
    const tabs = tabsText(dataDir);
    const file = JSON.parse(text) as Partial<CacheFile>;
    if (file.version !== VERSION || file.settings !== settings || file.tabs !== tabs || !file.state || !Array.isArray(file.state.agents)) return null;
    return JSON.stringify(now ? { ...file.state, ...now } : file.state).replace(/</g, '\\u003c');
  } catch {
    return null;
  }
}
