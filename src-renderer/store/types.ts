import type { AppState } from '../../src-shared/ipc/appState';
import type { Catalog, InstallProgress } from '../../src-shared/ipc/registryContract';
import type { ContentBlock } from '../../src-shared/session/events';
import type { SessionState } from '../../src-shared/session/state';

/** The renderer's one store: one slice per concern (zustand's slices pattern). */
export type Store = AppSlice & UiSlice & RegistrySlice;

export type Connection = 'connecting' | 'open' | 'closed' | 'unauthorized';

/** What main says: the connection to it, the app state, each session's folded state. */
export interface AppSlice {
  connection: Connection;
  app: AppState | null;
  /** Each session's state = fold(reduceSession, its events); written only by `sessionSync`. */
  sessions: Record<string, SessionState>;
  /** A transient error to show (a failed request). */
  toast: string | null;
  showToast(message: string | null): void;
}

/** An attachment waiting in the composer: shown as a removable chip, sent as a content block. */
export interface Attachment {
  id: string;
  label: string;
  block: ContentBlock;
}

/** The registry catalog's filter (what the catalog view shows). */
export type CatalogShow = 'all' | 'installed' | 'updates' | 'available';

export interface CatalogFilter {
  query: string;
  show: CatalogShow;
  distribution: 'any' | 'binary' | 'npx' | 'uvx';
}

export type PanelTab = 'plan' | 'terminals' | 'review' | 'file';

/** What the side panel of one session shows. */
export interface SessionUi {
  panelTab: PanelTab | null;
  /** null: follow the content (open when there is something to show). */
  panelOpen: boolean | null;
  file: { path: string; line: number | null } | null;
  draft: string;
  attachments: Attachment[];
  /** Scroll state of the transcript, kept across tab switches. */
  scroll: { top: number; following: boolean } | null;
  /** The review tab's selected file. */
  reviewPath: string | null;
  /** The plan tab's plan: the id of the plan entry whose "Show plan" was pressed (null: the latest plan). */
  planEntryId: string | null;
  /** Checkpoints (issue 24): the review tab's scope, a turn id or `session` (null: the whole session). */
  reviewScope?: string | null;
}

export type Theme = 'system' | 'light' | 'dark';

/**
 * View-only state: which page is shown, open/closed disclosures, drafts, scroll positions.
 * Kept out of the session state (which is a pure fold of events) and keyed by entry id or
 * toolCallId so that virtualized rows keep it when they unmount.
 */
export interface UiSlice {
  /** `history`: the history and search view (features/history). */
  view: 'session' | 'settings' | 'history';
  /** The new-session dialog: undefined when closed; null agent = let the person pick. */
  newSession: { agentId: string | null } | undefined;
  sidebarOpen: boolean;
  theme: Theme;
  notifications: boolean;
  /** entry id / toolCallId / `${toolCallId}:raw-input` … → expanded. */
  expanded: Record<string, boolean>;
  diffLayout: 'side-by-side' | 'inline';
  infoOpen: boolean;
  /** Per session: its view state (see SessionUi). */
  sessionUi: Record<string, SessionUi>;
  /**
   * A transcript entry to bring into view once its session is shown (a search result was
   * opened). The transcript scrolls to it and clears it.
   */
  focusEntry: { sessionId: string; entryId: string } | null;
  /** Permission requests whose first option already took the focus once. */
  focusedPermissions: Record<string, true>;
  setView(view: UiSlice['view']): void;
  openNewSession(agentId: string | null): void;
  closeNewSession(): void;
  toggle(key: string, value?: boolean): void;
  uiOf(sessionId: string): SessionUi;
  patchSessionUi(sessionId: string, patch: Partial<SessionUi>): void;
  openFile(sessionId: string, path: string, line: number | null): void;
  setFocusEntry(focus: { sessionId: string; entryId: string } | null): void;
}

/**
 * The catalog: the last catalog main sent, live progress per agent, the filter, and which
 * confirmation is open. Intents go to main through `features/registry/actions.ts`; results come
 * back as `registry.catalog` and `install.progress` events.
 */
export interface RegistrySlice {
  catalogOpen: boolean;
  /** An agent to scroll to and highlight (a deep link asked for it). */
  catalogFocus: string | null;
  catalog: Catalog | null;
  catalogRefreshing: boolean;
  /** A request that failed outside any agent (list, refresh). */
  catalogError: string | null;
  installProgress: Record<string, InstallProgress>;
  /** Errors of install/update/uninstall requests, by agent, until the next attempt. */
  installErrors: Record<string, string>;
  catalogFilter: CatalogFilter;
  confirmUninstall: string | null;
  setCatalogFilter(patch: Partial<CatalogFilter>): void;
  setConfirmUninstall(agentId: string | null): void;
  setInstallError(agentId: string, error: string | null): void;
}
