import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import type { AppNotice, AppState } from '../../src-shared/ipc/appState';
import type { EventName, EventPayload, Handlers } from '../../src-shared/ipc/contract';
import { ProtocolError } from '../acp/agentConnection';
import { AgentManager, type AgentDefinition } from '../agents/agentManager';
import type { StartAgent } from '../agents/agentProcess';
import { historyHandlers } from '../history/historyHandlers';
import { HistoryService } from '../history/historyService';
import { isInsideRoots } from '../fs/fileAccess';
import { SessionManager } from '../sessions/sessionManager';
import type { SecretStore } from '../store/secretStore';
import { SettingsStore } from '../store/settingsStore';
import { TabsStore } from '../store/tabsStore';
import { attachRegistry, registryHandlers } from '../registry/registryHandlers';

export interface AppCoreOptions {
  dataDir: string;
  host: AppState['host'];
  /** Folder offered for new sessions (default: the home folder). */
  defaultCwd?: string;
  initializeTimeoutMs?: number;
  cancelGraceMs?: number;
  /** Where sign-in secrets go (Electron: `SafeStorageSecrets`); default: memory only. */
  secrets?: SecretStore;
  /** How agents are started (default: a process each). */
  startAgent?: StartAgent;
}

type Listener = (name: EventName, payload: unknown) => void;

/** Extra agent sources (the registry installer adds one) and their part of the handler table. */
export interface CoreExtension {
  agents?: () => AgentDefinition[];
  /** What this extension is busy with (e.g. an agent install), for the quit confirmation. */
  busy?: () => string[];
}

/**
 * The main-process core: implements every request of the IPC contract and emits its events.
 * The same object runs inside Electron's main process and inside the plain-Node browser host.
 */
export class AppCore {
  readonly settings: SettingsStore;
  readonly agents: AgentManager;
  readonly sessions: SessionManager;
  readonly tabs: TabsStore;
  /** History, search, drafts, export (issue 6). */
  readonly history: HistoryService;
  private listeners = new Set<Listener>();
  private notices: AppNotice[] = [];
  private extensions: CoreExtension[] = [];
  private stateTimer: ReturnType<typeof setTimeout> | null = null;
  readonly ready: Promise<void>;

  constructor(readonly options: AppCoreOptions) {
    mkdirSync(options.dataDir, { recursive: true });
    this.settings = new SettingsStore(options.dataDir);
    this.settings.watch(() => this.changed());
    this.agents = new AgentManager({
      definitions: () => this.agentDefinitions(),
      clientSide: (agentId) => this.sessions.clientSide(agentId),
      initializeTimeoutMs: options.initializeTimeoutMs ?? 60_000,
      secrets: options.secrets,
      startAgent: options.startAgent,
      onChange: () => this.changed(),
      onExit: (agentId, info, tail) => this.sessions.onAgentExit(agentId, info.code, info.signal, tail),
    });
    this.sessions = new SessionManager({
      dataDir: options.dataDir,
      agents: this.agents,
      settings: () => this.settings.settings,
      emit: (sessionId, events) => {
        this.emit('session.events', { sessionId, events });
        // The batch is in the log already: the history index and search catch up from it.
        this.history.onEvents(sessionId, events);
      },
      onChange: () => this.changed(),
      opened: (sessionId) => {
        this.tabs.open(sessionId);
        this.changed();
      },
      cancelGraceMs: options.cancelGraceMs,
      updateSettings: (mutate) => this.settings.update(mutate),
    });
    this.tabs = new TabsStore(options.dataDir);
    this.history = new HistoryService({
      dataDir: options.dataDir,
      sessions: this.sessions,
      agents: this.agents,
      tabs: this.tabs,
      settings: () => this.settings.settings,
      notice: (level, message) => this.notice(level, message),
      changed: () => this.changed(),
    });
    this.ready = this.restoreTabs();
    // Index logs written while the app was not running (or before a crash) in the background.
    void this.ready.then(() => this.history.reconcile());
    attachRegistry(this);
  }

  extend(extension: CoreExtension): void {
    this.extensions.push(extension);
    this.changed();
  }

  private agentDefinitions(): AgentDefinition[] {
    const custom: AgentDefinition[] = this.settings.settings.agents.map((agent) => {
      const override = this.settings.settings.agentOverrides[agent.id];
      return {
        id: agent.id,
        name: agent.name,
        source: 'custom',
        description: `${agent.command} ${agent.args.join(' ')}`.trim(),
        launch: {
          command: override?.command ?? agent.command,
          args: [...agent.args, ...(override?.args ?? [])],
          env: { ...agent.env, ...override?.env },
        },
      };
    });
    const seen = new Set(custom.map((agent) => agent.id));
    const others = this.extensions.flatMap((extension) => extension.agents?.() ?? []).filter((agent) => !seen.has(agent.id));
    return [...custom, ...others];
  }

  private async restoreTabs(): Promise<void> {
    const saved = this.tabs.load();
    if (saved.error) this.notice('warning', saved.error);
    const open: string[] = [];
    for (const sessionId of saved.open) {
      try {
        if (await this.sessions.restore(sessionId)) open.push(sessionId);
      } catch (error) {
        this.notice('error', `Could not restore a session (${sessionId}): ${(error as Error).message}`);
      }
    }
    this.tabs.set(open, saved.active && open.includes(saved.active) ? saved.active : (open[0] ?? null));
    this.changed();
  }

  // ---------------------------------------------------------------- events

  on(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit<K extends EventName>(name: K, payload: EventPayload<K>): void {
    for (const listener of this.listeners) listener(name, payload);
  }

  /** App state is pushed whole, coalesced to one push per tick of changes. */
  changed(): void {
    this.stateTimer ??= setTimeout(() => {
      this.stateTimer = null;
      this.emit('app.state', this.state());
    }, 0);
  }

  notice(level: AppNotice['level'], message: string): void {
    this.notices = [...this.notices.filter((n) => n.message !== message), { id: String(Date.now() + Math.random()), level, message }].slice(-20);
    this.changed();
  }

  state(): AppState {
    const settingsNotice: AppNotice[] = this.settings.error ? [{ id: 'settings', level: 'error', message: this.settings.error }] : [];
    return {
      host: this.options.host,
      platform: process.platform,
      dataDir: this.options.dataDir,
      settingsPath: this.settings.file,
      defaultCwd: this.options.defaultCwd ?? homedir(),
      agents: this.agents.summaries(),
      sessions: this.sessions.summaries(),
      tabs: this.tabs.current(),
      notices: [...settingsNotice, ...this.notices],
    };
  }

  // ---------------------------------------------------------------- the contract

  readonly handlers: Handlers = {
    ...registryHandlers(this),
    ...historyHandlers(() => this.history),
    'app.state': async () => {
      await this.ready;
      return this.state();
    },
    'session.new': async ({ agentId, cwd, additionalDirectories }) => {
      const agent = this.agents.find(agentId);
      if (!agent) throw new ProtocolError(`Unknown agent "${agentId}".`);
      const folder = resolve(cwd);
      if (!isDirectory(folder)) throw new ProtocolError(`The workspace folder ${folder} does not exist.`);
      const session = this.sessions.open({ agentId, agentName: agent.name, cwd: folder, additionalDirectories });
      return { sessionId: session.id };
    },
    'session.events': async ({ sessionId, afterSeq }) => ({ events: await this.sessions.events(sessionId, afterSeq) }),
    'session.prompt': async ({ sessionId, prompt }) => this.sessions.prompt(sessionId, prompt as never),
    'session.cancel': async ({ sessionId }) => {
      this.sessions.cancel(sessionId);
      return { ok: true };
    },
    'session.open': async ({ sessionId }) => {
      if (!(await this.sessions.restore(sessionId))) throw new ProtocolError(`No session "${sessionId}".`);
      this.tabs.open(sessionId);
      this.changed();
      return { ok: true };
    },
    'session.close': async ({ sessionId }) => {
      this.sessions.close(sessionId);
      this.tabs.close(sessionId);
      this.changed();
      return { ok: true };
    },
    'tabs.set': async ({ open, active }) => {
      this.tabs.set(open.filter((id) => this.sessions.sessions.has(id)), active);
      this.changed();
      return { ok: true };
    },
    'permission.respond': async ({ sessionId, requestId, optionId }) => {
      this.sessions.respondPermission(sessionId, requestId, optionId);
      return { ok: true };
    },
    'elicitation.respond': async ({ sessionId, requestId, action, content }) => {
      this.sessions.respondElicitation(sessionId, requestId, action, content);
      return { ok: true };
    },
    'config.set': async ({ sessionId, configId, value }) => {
      await this.sessions.setConfig(sessionId, configId, value);
      return { ok: true };
    },
    'mode.set': async ({ sessionId, modeId }) => {
      await this.sessions.setMode(sessionId, modeId);
      return { ok: true };
    },
    'terminal.input': async ({ sessionId, terminalId, data }) => {
      this.sessions.terminalInput(sessionId, terminalId, data);
      return { ok: true };
    },
    'terminal.resize': async ({ sessionId, terminalId, cols, rows }) => {
      this.sessions.terminalResize(sessionId, terminalId, cols, rows);
      return { ok: true };
    },
    'agent.restart': async ({ agentId }) => {
      if (!this.agents.find(agentId)) throw new ProtocolError(`Unknown agent "${agentId}".`);
      await this.sessions.restartAgent(agentId);
      return { ok: true };
    },
    'agent.stderr': async ({ agentId }) => ({ lines: this.agents.stderr(agentId) }),
    'auth.start': async ({ sessionId, methodId, env }) => ({ ok: true, ...(await this.sessions.startAuth(sessionId, methodId, env)) }),
    'agent.logout': async ({ agentId }) => {
      if (!this.agents.find(agentId)) throw new ProtocolError(`Unknown agent "${agentId}".`);
      return { ok: true, ...(await this.sessions.logout(agentId)) };
    },
    'fs.list': async ({ path }) => {
      const folder = resolve(path ?? this.options.defaultCwd ?? homedir());
      let names: string[];
      try {
        names = readdirSync(folder);
      } catch (error) {
        throw new ProtocolError(`Cannot list ${folder}: ${(error as Error).message}`);
      }
      const entries = names
        .filter((name) => !name.startsWith('.'))
        .map((name) => ({ name, dir: isDirectory(join(folder, name)) }))
        .sort((a, b) => Number(b.dir) - Number(a.dir) || a.name.localeCompare(b.name))
        .slice(0, 2000);
      const parent = dirname(folder);
      return { path: folder, parent: parent === folder ? null : parent, entries };
    },
    'fs.readFile': async ({ sessionId, path }) => {
      const session = this.sessions.get(sessionId);
      if (!isInsideRoots(path, session.roots)) throw new ProtocolError(`${path} is outside this session's workspace folders.`);
      try {
        const text = readFileSync(path, 'utf8');
        const max = 2 * 1024 * 1024;
        return { path, text: text.length > max ? text.slice(0, max) : text, truncated: text.length > max };
      } catch (error) {
        throw new ProtocolError(`Cannot read ${path}: ${(error as Error).message}`);
      }
    },
    'fs.search': async ({ sessionId, query }) => {
      const root = this.sessions.get(sessionId).fold().cwd;
      return { root, paths: searchFiles(root, query) };
    },
    'permissions.remembered': async () => ({
      items: Object.entries(this.settings.settings.alwaysAllow).map(([key, optionKind]) => {
        const cut = key.lastIndexOf(':');
        return { key, agentId: cut > 0 ? key.slice(0, cut) : key, toolKind: cut > 0 ? key.slice(cut + 1) : '', optionKind };
      }),
    }),
    'permissions.forget': async ({ key }) => {
      const json = JSON.parse(this.settings.text()) as { alwaysAllow?: Record<string, string> };
      if (json.alwaysAllow && key in json.alwaysAllow) {
        delete json.alwaysAllow[key];
        const error = this.settings.write(JSON.stringify(json, null, 2));
        if (error) throw new ProtocolError(error);
        this.changed();
      }
      return { ok: true };
    },
    'settings.read': async () => ({ path: this.settings.file, text: this.settings.text(), error: this.settings.error }),
    'settings.write': async ({ text }) => {
      const error = this.settings.write(text);
      this.changed();
      return { error };
    },
  };

  /**
   * What quitting now would interrupt: running turns, and what extensions report (installs).
   * Empty when the app may quit without asking.
   */
  busyReasons(): string[] {
    const turns = [...this.sessions.sessions.values()]
      .filter((session) => session.turn !== null)
      .map((session) => `A turn is running in “${session.fold().title || session.fold().agentName || session.id}”.`);
    return [...turns, ...this.extensions.flatMap((extension) => extension.busy?.() ?? [])];
  }

  async dispose(): Promise<void> {
    await this.sessions.disposeAll();
    await this.history.dispose();
    await this.agents.stopAll();
    this.settings.dispose();
  }
}

/** The composer's @ picker: paths under `root` matching `query` (subsequence, best first), skipping dependency and VCS folders. */
function searchFiles(root: string, query: string, limit = 50): string[] {
  const needle = query.toLowerCase();
  const found: { path: string; score: number }[] = [];
  const queue = [root];
  let visited = 0;
  while (queue.length && visited < 20_000) {
    const folder = queue.shift()!;
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      continue;
    }
    for (const name of names) {
      if (name === 'node_modules' || name === '.git' || name === '.hg' || name === '.svn') continue;
      visited++;
      const full = join(folder, name);
      if (isDirectory(full)) {
        queue.push(full);
        continue;
      }
      const rel = relative(root, full).toLowerCase();
      const score = matchScore(rel, name.toLowerCase(), needle);
      if (score >= 0) found.push({ path: full, score });
    }
  }
  return found.sort((a, b) => b.score - a.score || a.path.length - b.path.length).slice(0, limit).map((f) => f.path);
}

function matchScore(rel: string, name: string, needle: string): number {
  if (!needle) return 0;
  if (name.startsWith(needle)) return 3;
  if (name.includes(needle)) return 2;
  if (rel.includes(needle)) return 1;
  let i = 0;
  for (const ch of rel) if (ch === needle[i]) i++;
  return i === needle.length ? 0 : -1;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
