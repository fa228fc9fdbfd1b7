import type { RemoteAgentView } from '../remote';
import type { AgentCapabilities, AgentInfo, AuthMethodInfo, JsonObject } from '../session/controls';
import type { SessionStatus } from '../session/state';

/** How an agent gets onto the machine. */
export type AgentSource = 'custom' | 'registry';

/** One agent as the sidebar and the catalog show it. */
export interface AgentSummary {
  id: string;
  name: string;
  description?: string;
  version?: string;
  source: AgentSource;
  /** Whether a command to start it is known (custom agents always, registry agents once installed). */
  runnable: boolean;
  /** The agent process, if one is running. */
  process: 'stopped' | 'starting' | 'ready' | 'error';
  error?: string;
  /** From the agent's `initialize` answer, once it has run. */
  agentInfo?: AgentInfo | null;
  protocolVersion?: number;
  capabilities?: AgentCapabilities | null;
  authMethods?: AuthMethodInfo[];
  /** The `_meta` of the `initialize` answer (extension data), shown as JSON in the agent info dialog. */
  meta?: JsonObject | null;
  /** Sign-in state the app keeps: which `env_var` values are stored (names only), where, and whether `logout` exists. */
  signIn?: { storedEnv: string[]; secretsPersistent: boolean; secretsDescription: string; canLogout: boolean };
  /** Sanitized SVG markup, or undefined for the letter fallback. */
  icon?: string;
  /** A remote agent (issue 26): where it runs, its connection state, what of this computer it is offered. */
  remote?: RemoteAgentView;
}

/** A session as the sidebar, tabs and history list it (no transcript). */
export interface SessionSummary {
  sessionId: string;
  agentId: string;
  agentName: string;
  cwd: string;
  title: string | null;
  status: SessionStatus;
  lastActivity: number;
  /** Pending permission/elicitation/sign-in requests: drives the tab badge. */
  needsAttention: number;
  readonly: boolean;
  /** Worktree sessions: the session's branch and the base it merges into (docs/WORKTREES.md). */
  worktree?: { branch: string; base: string };
}

/** A tab the last run left open whose session is not read back yet, or could not be (`error`): shown in its place meanwhile. */
export interface TabPlaceholder {
  sessionId: string;
  /** What the host knew of it before reading it (the history catalog, else the log's first line). */
  title: string | null;
  agentName: string | null;
  /** Why it could not be read back; absent while it is being read. */
  error?: string;
}

export interface AppNotice {
  id: string;
  level: 'info' | 'warning' | 'error';
  message: string;
}

/** Everything outside the transcripts; pushed whole on change (it is small). */
export interface AppState {
  host: 'electron' | 'browser';
  platform: string;
  dataDir: string;
  settingsPath: string;
  /** The folder new sessions start in unless the person picks another. */
  defaultCwd: string;
  agents: AgentSummary[];
  sessions: SessionSummary[];
  tabs: { open: string[]; active: string | null };
  /**
   * How many of the tabs the last run left open are still being restored (absent once none):
   * the first answer comes before the restore, and the page says so instead of an empty window.
   */
  restoring?: number;
  /** The open tabs whose sessions are not read back (yet), each in `tabs.open` at its saved place (absent when none). */
  tabsNotBack?: TabPlaceholder[];
  notices: AppNotice[];
}
