import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppState } from '../../src-shared/ipc/appState';
import { appStateCache, saveAppStateCache } from './appStateCache';
import { pageStart } from './pageStart';
import { saveShellPaint, shellPaintBlock, stateKey } from './shellPaint';

let dataDir: string;

const STATE: AppState = {
  host: 'browser',
  platform: 'linux',
  dataDir: '/data',
  settingsPath: '/data/settings.json',
  defaultCwd: '/work',
  agents: [{ id: 'a', name: 'Agent A', source: 'custom', runnable: true, process: 'ready' }],
  sessions: [],
  tabs: { open: [], active: null },
  notices: [],
};
const SHELL =
  '<div class="app"><nav class="sidebar" aria-label="Agents and sessions"><button type="button" aria-label="New session with Agent A"></button></nav></div>';

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'acp-shell-paint-'));
  mkdirSync(join(dataDir, 'sessions'));
  writeFileSync(join(dataDir, 'settings.json'), '{"agents":[]}');
  writeFileSync(join(dataDir, 'sessions', 'tabs.json'), JSON.stringify(STATE.tabs));
  await saveAppStateCache(dataDir, STATE);
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

/** The key of the cached state a page is served now. */
async function servedKey(): Promise<string> {
  const state = await appStateCache(dataDir);
  expect(state).not.toBeNull();
  return stateKey(state!);
}

describe('the shell served at the first paint', () => {
  it('is saved and served only with the very cached state it was drawn from', async () => {
    const key = await servedKey();
    expect(await saveShellPaint(dataDir, { key: 'another-state', theme: 'light', html: SHELL })).toEqual({ saved: false });
    expect(existsSync(join(dataDir, 'shell-paint.json'))).toBe(false);
    expect(await saveShellPaint(dataDir, { key, theme: 'dark', html: SHELL })).toEqual({ saved: true });

    const start = await pageStart(dataDir);
    expect(start?.markup).toContain(`<div id="first-paint-shell" aria-hidden="true" inert>${SHELL}</div>`);
    expect(start?.markup).toContain(`data-key="${key}"`);
    // Painted before the app's script runs, in the palette it was drawn in.
    expect(start?.deferEntry).toBe(true);
    expect(start?.theme).toBe('dark');

    // Another state is cached (an agent installed): the shell shows the old one, so it is not served.
    await saveAppStateCache(dataDir, {
      ...STATE,
      agents: [...STATE.agents, { id: 'b', name: 'Agent B', source: 'custom', runnable: true, process: 'stopped' }],
    });
    expect((await pageStart(dataDir))?.markup).not.toContain('first-paint-shell');
    expect(await shellPaintBlock(dataDir, (await appStateCache(dataDir))!)).toBeNull();
  });

  it('is not served once the settings changed (no cached state is served then)', async () => {
    expect(await saveShellPaint(dataDir, { key: await servedKey(), theme: 'light', html: SHELL })).toEqual({ saved: true });
    writeFileSync(join(dataDir, 'settings.json'), '{"agents":[{"id":"b"}]}');
    expect(await pageStart(dataDir)).toBeNull();
  });

  it('refuses markup that could run or load anything, and a torn file is simply not used', async () => {
    const key = await servedKey();
    expect(await saveShellPaint(dataDir, { key, theme: 'light', html: `${SHELL}<img src="x" onerror="alert(1)">` })).toEqual({
      saved: false,
      refused: 'it has an onerror attribute',
    });
    expect(existsSync(join(dataDir, 'shell-paint.json'))).toBe(false);
    writeFileSync(join(dataDir, 'shell-paint.json'), '{"version":1,"key":');
    const start = await pageStart(dataDir);
    expect(start?.markup).toContain('id="app-state-cache"');
    expect(start?.markup).not.toContain('first-paint-shell');
    expect(start?.deferEntry).toBe(false);
  });
});
