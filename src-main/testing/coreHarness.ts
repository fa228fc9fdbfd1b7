import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { SessionEvent, SessionEventKind } from '../../src-shared/session/events';
import { reduceSession } from '../../src-shared/session/reducer';
import type { SessionState, ToolCallEntry, TranscriptEntry } from '../../src-shared/session/state';
import type { EventPayload, RequestInput } from '../../src-shared/ipc/contract';
import type { ProtocolSetting, SettingsInput } from '../../src-shared/settings';

/** A content block of a prompt, as the renderer sends it (`session.prompt`). */
type PromptBlock = RequestInput<'session.prompt'>['prompt'][number];
import type { AppCore, AppCoreOptions } from '../core/appCore';
import { createCore } from '../core/createCore';
import { afterEach, beforeEach, describe } from 'vitest';
import { inProcessAgents } from './inProcessAgent';

export const FIXTURE_AGENT = resolve(import.meta.dirname, '../../e2e/fixtures/fixture-agent.mjs');

export interface HarnessOptions {
  /** More custom agents: `{ id, name, args }` run the fixture with those flags; `command` runs anything. */
  agents?: { id: string; name?: string; args?: string[]; command?: string; env?: Record<string, string> }[];
  /** Extra AppCore options (timeouts, secrets). */
  core?: Partial<AppCoreOptions>;
  /** Reuse a data folder (app restart). */
  dataDir?: string;
  workspace?: string;
  /**
   * Start the fixture agent as a real process (integration tests: process trees, signals).
   * By default it runs in this process (`inProcessAgents`, `inProcessAgent.ts`).
   */
  processes?: boolean;
  /**
   * The `protocol` setting of every fixture agent (the fixture speaks v1 and v2): `auto` runs the
   * scenarios in v2. An `agentOverrides` entry in `extra` wins for its agent.
   */
  protocol?: ProtocolSetting;
}

/** The protocols a test that makes sense in both ACP versions runs under. */
export const PROTOCOLS = ['v1', 'auto'] as const satisfies readonly ProtocolSetting[];

/** The protocol of the `describeProtocols` block running now: `makeCore`'s default. */
let currentProtocol: ProtocolSetting | undefined;

/**
 * `describe(name, body)` once per protocol, named `[v1] name` and `[auto] name`; every `makeCore`
 * in it gives the fixture agents that protocol (under `auto` the fixture speaks v2).
 */
export function describeProtocols(name: string, body: (protocol: ProtocolSetting) => void, protocols: readonly ProtocolSetting[] = PROTOCOLS): void {
  for (const protocol of protocols) {
    describe(`[${protocol}] ${name}`, () => {
      beforeEach(() => void (currentProtocol = protocol));
      afterEach(() => void (currentProtocol = undefined));
      body(protocol);
    });
  }
}

/** A core in a fresh data folder with the fixture agent configured as custom agent `fixture`. */
export function makeCore(agentArgs: string[] = [], extra: SettingsInput = {}, options: HarnessOptions = {}) {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'acp-core-'));
  const workspace = options.workspace ?? mkdtempSync(join(tmpdir(), 'acp-ws-'));
  const fixture = (id: string, name: string, args: string[], env: Record<string, string> = {}) => ({
    id,
    name,
    command: process.execPath,
    args: [FIXTURE_AGENT, '--delay', '0', ...args],
    env,
  });
  const agents = [
    fixture('fixture', 'Fixture', agentArgs),
    ...(options.agents ?? []).map((agent) =>
      agent.command
        ? { id: agent.id, name: agent.name ?? agent.id, command: agent.command, args: agent.args ?? [], env: agent.env ?? {} }
        : fixture(agent.id, agent.name ?? agent.id, agent.args ?? [], agent.env),
    ),
  ];
  const overrides = extra.agentOverrides ?? {};
  const protocol = options.protocol ?? currentProtocol;
  const agentOverrides = protocol
    ? Object.fromEntries([
        ...agents.filter((agent) => agent.args[0] === FIXTURE_AGENT).map((agent) => [agent.id, { protocol }]),
        ...Object.entries(overrides).map(([id, override]) => [id, { protocol, ...override }]),
      ])
    : overrides;
  // Checkpoints (a git snapshot around every turn) are off unless a test asks for them: they cost
  // git processes per turn, and their own tests turn them on (src-main/checkpoints/).
  const checkpoints = { enabled: false };
  writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ agents, checkpoints, ...extra, agentOverrides }, null, 2));
  const core = createCore({
    dataDir,
    host: 'browser',
    defaultCwd: workspace,
    initializeTimeoutMs: 10_000,
    cancelGraceMs: 2000,
    ...(options.processes ? {} : { startAgent: inProcessAgents() }),
    ...options.core,
  });
  const states = new Map<string, SessionState>();
  const events: SessionEvent[] = [];
  core.on((name, payload) => {
    if (name !== 'session.events') return;
    const batch = payload as EventPayload<'session.events'>;
    events.push(...batch.events);
    states.set(batch.sessionId, reduceSession(states.get(batch.sessionId), batch.events));
  });
  const waitFor = async (predicate: () => boolean, what: string | (() => string), timeoutMs = 10_000) => {
    const start = Date.now();
    while (!predicate()) {
      if (Date.now() - start > timeoutMs) throw new Error(`Timed out waiting for ${typeof what === 'string' ? what : what()}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  const state = (sessionId: string) => states.get(sessionId)!;
  const eventsOf = <K extends SessionEventKind>(sessionId: string, kind: K) =>
    events.filter((event): event is Extract<SessionEvent, { kind: K }> => event.sessionId === sessionId && event.kind === kind);
  const connected = (sessionId: string) => {
    const s = states.get(sessionId);
    return s?.acpSessionId != null && s.status !== 'starting';
  };
  const newSession = async (agentId = 'fixture', extraInput: { cwd?: string; additionalDirectories?: string[] } = {}) => {
    const { sessionId } = await core.handlers['session.new']({
      agentId,
      cwd: extraInput.cwd ?? workspace,
      additionalDirectories: extraInput.additionalDirectories,
    });
    await waitFor(
      () =>
        eventsOf(sessionId, 'session.connected').length > 0 ||
        states.get(sessionId)?.status === 'error' ||
        states.get(sessionId)?.status === 'exited' ||
        Boolean(states.get(sessionId)?.authMethods),
      'session to connect',
    );
    return sessionId;
  };
  const stops = (sessionId: string) => state(sessionId)?.entries.filter((e) => e.kind === 'stop').length ?? 0;
  /** Sends a prompt; resolves when the turn has ended. */
  const prompt = async (sessionId: string, text: string | PromptBlock[], timeoutMs = 10_000) => {
    const before = stops(sessionId);
    await send(sessionId, text);
    await waitFor(() => stops(sessionId) > before, `turn "${typeof text === 'string' ? text : 'blocks'}" to end`, timeoutMs);
    return state(sessionId);
  };
  /** Sends a prompt without waiting for the turn. */
  const send = (sessionId: string, text: string | PromptBlock[]) =>
    core.handlers['session.prompt']({ sessionId, prompt: typeof text === 'string' ? [{ type: 'text', text }] : text });
  /** All agent text of the session, joined. */
  const agentText = (sessionId: string) =>
    (state(sessionId)?.entries ?? [])
      .filter((e): e is Extract<TranscriptEntry, { kind: 'agent' }> => e.kind === 'agent')
      .map((e) => e.text)
      .join('\n');
  const lastStop = (sessionId: string) =>
    [...(state(sessionId)?.entries ?? [])].reverse().find((e) => e.kind === 'stop') as Extract<TranscriptEntry, { kind: 'stop' }> | undefined;
  const tool = (sessionId: string, toolCallId: string) => {
    const s = state(sessionId);
    const index = s?.toolIndex[toolCallId];
    return index === undefined ? undefined : (s.entries[index] as ToolCallEntry);
  };
  const notices = (sessionId: string) =>
    (state(sessionId)?.entries ?? []).filter((e): e is Extract<TranscriptEntry, { kind: 'notice' }> => e.kind === 'notice');
  const waitForPermission = async (sessionId: string) => {
    await waitFor(() => (state(sessionId)?.permissions.length ?? 0) > 0, 'a permission request');
    return state(sessionId).permissions[0];
  };
  const waitForElicitation = async (sessionId: string) => {
    await waitFor(() => (state(sessionId)?.elicitations.length ?? 0) > 0, 'an elicitation');
    return state(sessionId).elicitations[0];
  };
  const dispose = () => core.dispose();
  return {
    core,
    dataDir,
    workspace,
    states,
    events,
    state,
    eventsOf,
    connected,
    waitFor,
    newSession,
    prompt,
    send,
    agentText,
    lastStop,
    tool,
    notices,
    waitForPermission,
    waitForElicitation,
    dispose,
  };
}

/** The same data folder opened again, as after quitting (dispose) or a crash (no dispose); ready to use. */
export async function reopenCore(h: { dataDir: string; workspace: string }): Promise<AppCore> {
  const core = createCore({
    dataDir: h.dataDir,
    host: 'browser',
    defaultCwd: h.workspace,
    initializeTimeoutMs: 10_000,
    cancelGraceMs: 2000,
    startAgent: inProcessAgents(),
  });
  await core.ready;
  return core;
}

export type Harness = ReturnType<typeof makeCore>;

/** Disposes every harness made in a test file: `afterEach(disposeAll(list))`. */
export function disposer() {
  const list: Harness[] = [];
  return {
    track<T extends Harness>(harness: T): T {
      list.push(harness);
      return harness;
    },
    async disposeAll() {
      await Promise.all(list.splice(0).map((h) => h.dispose()));
    },
  };
}
