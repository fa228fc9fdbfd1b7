import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { SessionEvent } from '../../src-shared/session/events';
import { reduceSession } from '../../src-shared/session/reducer';
import type { SessionState } from '../../src-shared/session/state';
import { AppCore } from '../core/appCore';

export const FIXTURE_AGENT = resolve(import.meta.dirname, '../../e2e/fixtures/fixture-agent.mjs');

/** A core in a fresh data folder with the fixture agent configured as custom agent `fixture`. */
export function makeCore(agentArgs: string[] = [], extra: Record<string, unknown> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'acp-core-'));
  const workspace = mkdtempSync(join(tmpdir(), 'acp-ws-'));
  writeFileSync(
    join(dataDir, 'settings.json'),
    JSON.stringify({ agents: [{ id: 'fixture', name: 'Fixture', command: process.execPath, args: [FIXTURE_AGENT, '--delay', '0', ...agentArgs] }], ...extra }),
  );
  const core = new AppCore({ dataDir, host: 'browser', defaultCwd: workspace, initializeTimeoutMs: 10_000, cancelGraceMs: 2000 });
  const states = new Map<string, SessionState>();
  const events: SessionEvent[] = [];
  core.on((name, payload) => {
    if (name !== 'session.events') return;
    const batch = payload as { sessionId: string; events: SessionEvent[] };
    events.push(...batch.events);
    states.set(batch.sessionId, reduceSession(states.get(batch.sessionId), batch.events));
  });
  const waitFor = async (predicate: () => boolean, what: string, timeoutMs = 10_000) => {
    const start = Date.now();
    while (!predicate()) {
      if (Date.now() - start > timeoutMs) throw new Error(`Timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  const state = (sessionId: string) => states.get(sessionId)!;
  const newSession = async () => {
    const { sessionId } = await core.handlers['session.new']({ agentId: 'fixture', cwd: workspace });
    await waitFor(() => states.get(sessionId)?.acpSessionId != null || states.get(sessionId)?.status === 'error' || Boolean(states.get(sessionId)?.authMethods), 'session to connect');
    return sessionId;
  };
  const prompt = async (sessionId: string, text: string) => {
    const before = state(sessionId)?.entries.filter((e) => e.kind === 'stop').length ?? 0;
    await core.handlers['session.prompt']({ sessionId, prompt: [{ type: 'text', text }] });
    await waitFor(() => (state(sessionId)?.entries.filter((e) => e.kind === 'stop').length ?? 0) > before, `turn "${text}" to end`);
    return state(sessionId);
  };
  return { core, dataDir, workspace, states, events, state, waitFor, newSession, prompt };
}
