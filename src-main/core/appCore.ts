import type { AppState } from '../../src-shared/ipc/appState';
import type { Handlers } from '../../src-shared/ipc/contract';
import type { AgentManager, ConnectionFactory } from '../agents/agentManager';
import type { StartAgent } from '../process/agentProcess';
import type { HistoryService } from '../history/historyService';
import type { RegistryServiceOptions, RegistryService } from '../registry/registryService';
import type { SessionManager } from '../sessions/sessionManager';
import type { SecretStore } from '../store/secretStore';
import type { SettingsStore } from '../store/settingsStore';
import type { TabsStore } from '../store/tabsStore';
import type { WorktreeService } from '../worktrees/worktreeService';
import type { AppEvents } from './appEvents';

export interface AppCoreOptions {
  dataDir: string;
  host: AppState['host'];
  /** Folder offered for new sessions (default: the home folder). */
  defaultCwd?: string;
  initializeTimeoutMs?: number;
  cancelGraceMs?: number;
  /** Where sign-in secrets go (Electron: `SafeStorageSecrets`); default: memory only. */
  secrets?: SecretStore;
  /** The registry's environment and test hooks (default: `process.env`, the real network). */
  registry?: RegistryServiceOptions;
  /** Opens a file in the system's viewer (Electron: `shell.openPath`); the browser host has none. */
  openPath?: (path: string) => Promise<string>;
  /** How agents are started (default: a process each; unit tests run the fixture in-process). */
  startAgent?: StartAgent;
  /** Waits between a remote agent's reconnect attempts (default: 1 s doubling to 30 s, ten attempts). */
  remoteBackoffMs?: number[];
  /** How an agent's connection is made (default: over the SDK; session tests: `StubAgentLink`). */
  connectAgent?: ConnectionFactory;
  /** The environment checkpoints run git in (tests: a PATH without git). Default: `process.env`. */
  checkpointEnv?: NodeJS.ProcessEnv;
  /** When pruning of old checkpoints runs after the start (default: a minute). */
  checkpointPruneDelayMs?: number;
  /**
   * Hosts with a window (cold start, issue 23): the open tabs' sessions are restored once the first
   * `app.state` is answered, or after this many ms if no window asks; unset, they are restored at once.
   */
  restoreAfterFirstAnswerMs?: number;
}

/**
 * The main-process core, built by `createCore()`: every request of the IPC contract (`handlers`)
 * and the events it pushes (`on`). The same object runs inside Electron's main process and inside
 * the plain-Node browser host. The services are exposed for the hosts and the tests.
 */
export interface AppCore {
  readonly options: AppCoreOptions;
  readonly settings: SettingsStore;
  readonly agents: AgentManager;
  readonly sessions: SessionManager;
  readonly tabs: TabsStore;
  /** History, search, drafts, export (docs/HISTORY.md). */
  readonly history: HistoryService;
  /** The registry catalog and the installer (docs/REGISTRY.md). */
  readonly registry: RegistryService;
  /** Worktree sessions (docs/WORKTREES.md). */
  readonly worktrees: WorktreeService;
  readonly handlers: Handlers;
  /** Settled once the tabs of the last run are restored. */
  readonly ready: Promise<void>;
  on: AppEvents['on'];
  emit: AppEvents['emit'];
  /** App state is pushed whole, coalesced to one push per tick of changes. */
  changed(): void;
  notice: AppEvents['notice'];
  state(): AppState;
  /**
   * What quitting now would interrupt: running turns and installs. Empty when the app may quit
   * without asking.
   */
  busyReasons(): string[];
  dispose(): Promise<void>;
}
