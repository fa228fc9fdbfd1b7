import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppState } from '../../src-shared/ipc/appState';
import { appStateCache, saveAppStateCache, settledState } from './appStateCache';

let dataDir: string;

const STATE: AppState = {
  host: 'browser',
  platform: 'linux',
  dataDir: '/data',
  settingsPath: '/data/settings.json',
  defaultCwd: '/work',
  agents: [{ id: 'a', name: 'Agent </script><script>alert(1)</script>', source: 'custom', runnable: true, process: 'ready', error: 'old failure' }],
  sessions: [
    {
      sessionId: 's_one',
      agentId: 'a',
      agentName: 'Agent',
      cwd: '/work',
      title: 'First',
      status: 'running',
      lastActivity: 1,
      needsAttention: 0,
      readonly: false,
    },
    {
      sessionId: 's_two',
      agentId: 'a',
      agentName: 'Agent',
      cwd: '/work',
      title: 'Second',
      status: 'idle',
      lastActivity: 2,
      needsAttention: 0,
      readonly: false,
    },
  ],
  tabs: { open: ['s_two', 's_one', 's_three'], active: 's_one' },
  tabsNotBack: [{ sessionId: 's_three', title: 'Third', agentName: 'Agent' }],
  restoring: 1,
  notices: [{ id: 'n', level: 'error', message: 'The agent crashed' }],
};

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'acp-app-state-'));
  mkdirSync(join(dataDir, 'sessions'));
  writeFileSync(join(dataDir, 'settings.json'), '{"agents":[]}');
  writeFileSync(join(dataDir, 'sessions', 'tabs.json'), JSON.stringify(STATE.tabs));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

describe('the app state kept for the next start’s page', () => {
  it('is what the host’s first answer will say: nothing running, no notice, every tab a named placeholder in its place', () => {
    const settled = settledState(STATE);
    expect(settled.agents).toEqual([{ id: 'a', name: STATE.agents[0].name, source: 'custom', runnable: true, process: 'stopped' }]);
    expect(settled.sessions).toEqual([]);
    expect(settled.notices).toEqual([]);
    expect(settled.tabs).toEqual(STATE.tabs);
    expect(settled.restoring).toBe(3);
    expect(settled.tabsNotBack).toEqual([
      { sessionId: 's_two', title: 'Second', agentName: 'Agent' },
      { sessionId: 's_one', title: 'First', agentName: 'Agent' },
      { sessionId: 's_three', title: 'Third', agentName: 'Agent' },
    ]);
  });

  it('is served while settings.json and tabs.json say the same, as JSON that cannot close its script element', async () => {
    await saveAppStateCache(dataDir, STATE);
    const served = await appStateCache(dataDir);
    expect(served).not.toBeNull();
    expect(served).not.toContain('<');
    expect((JSON.parse(served!) as AppState).agents[0].name).toBe(STATE.agents[0].name);

    writeFileSync(join(dataDir, 'sessions', 'tabs.json'), JSON.stringify({ open: ['s_one'], active: 's_one' }));
    expect(await appStateCache(dataDir)).toBeNull();
    writeFileSync(join(dataDir, 'sessions', 'tabs.json'), JSON.stringify(STATE.tabs));
    expect(await appStateCache(dataDir)).not.toBeNull();
    // Written again as it was (a launcher that writes its settings at each start): still served.
    writeFileSync(join(dataDir, 'settings.json'), '{"agents":[]}');
    utimesSync(join(dataDir, 'settings.json'), new Date(), new Date(Date.now() + 5000));
    expect(await appStateCache(dataDir)).not.toBeNull();
    // Edited while the app was closed, even to the same size: not served.
    writeFileSync(join(dataDir, 'settings.json'), '{"agents":{}}');
    expect(await appStateCache(dataDir)).toBeNull();
  });

  it('is nothing when the file is missing or unreadable', async () => {
    expect(await appStateCache(dataDir)).toBeNull();
    writeFileSync(join(dataDir, 'app-state.json'), '{"version":1,');
    expect(await appStateCache(dataDir)).toBeNull();
  });

  it('says the folder this run of the host offers for new sessions, not the one of the run that saved it', async () => {
    await saveAppStateCache(dataDir, STATE);
    expect(JSON.parse((await appStateCache(dataDir))!).defaultCwd).toBe('/work');
    expect(JSON.parse((await appStateCache(dataDir, { defaultCwd: '/elsewhere' }))!).defaultCwd).toBe('/elsewhere');
  });
});
