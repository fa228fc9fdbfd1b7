import { join } from 'node:path';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import type { AppState } from '../../src-shared/ipc/appState';
import type { Handlers } from '../../src-shared/ipc/contract';
import { describeExit } from '../acp/describeExit';
import { AgentLogs } from '../agents/agentLog';
import { checkpointHandlers } from '../checkpoints/checkpointHandlers';
import { CheckpointService, type CheckpointSession } from '../checkpoints/checkpointService';
import { AgentManager } from '../agents/agentManager';
import { fsHandlers } from '../fs/fsHandlers';
import { historyHandlers } from '../history/historyHandlers';
import { HistoryService, type HistorySessions } from '../history/historyService';
import { logHandlers } from '../log/logHandlers';
import { logError, logWarn, openMainLog } from '../log/mainLog';
import { registryHandlers } from '../registry/registryHandlers';
import { RegistryService } from '../registry/registryService';
import type { Session } from '../sessions/session';
import { SessionManager } from '../sessions/sessionManager';
import { settingsHandlers } from '../store/settingsHandlers';
import { SettingsStore } from '../store/settingsStore';
import { protocolFor } from '../../src-shared/settings';
import { TabsStore } from '../store/tabsStore';
import { logHead } from '../store/logHead';
import { WorktreeStore } from '../store/worktreeStore';
import { worktreeHandlers } from '../worktrees/worktreeHandlers';
import { WorktreeService } from '../worktrees/worktreeService';
import { agentDefinitions } from './agentDefinitions';
import { RemoteAgents } from './remoteAgents';
import { remoteAgentHandlers, withRemote } from './remoteAgentHandlers';
import type { AppCore, AppCoreOptions } from './appCore';
import { AppEvents } from './appEvents';
import { sessionHandlers } from './sessionHandlers';
import { TabRestore } from './tabRestore';
import { windowHandlers } from './windowHandlers';
import { firstPaintHandlers } from './firstPaintHandlers';
import { saveAppStateWhenChanged } from './appStateSaver';
import { reviewHandlers } from './reviewHandlers';
import { Inspector, inspectorHandlers } from './inspector';

/**
 * The composition root: builds every service once, hands each the few functions it needs (no
 * service sees the core), and joins their slices of the handler table.
 */
export function createCore(options: AppCoreOptions): AppCore {
  mkdirSync(options.dataDir, { recursive: true });
  openMainLog(options.dataDir);
  const events = new AppEvents(() => state());
  // The browser host's next page draws the agent list from it before the core has loaded.
  const appStateSaver = options.host === 'browser' ? saveAppStateWhenChanged(events, options.dataDir) : null;
  const changed = () => events.changed();
  const notice = events.notice.bind(events);

  const settings = new SettingsStore(options.dataDir);
  settings.watch(changed);
  const agents: AgentManager = new AgentManager({
    definitions: () => agentDefinitions(settings.settings, registry.definitions(), agents.secrets),
    clientSide: (agentId) => sessions.clientSide(agentId),
    initializeTimeoutMs: options.initializeTimeoutMs ?? 60_000,
    secrets: options.secrets,
    startAgent: options.startAgent,
    connect: options.connectAgent,
    protocol: (agentId) => protocolFor(settings.settings, agentId),
    recorder: (agentId) => inspector.recorder(agentId),
    onChange: changed,
    logs: new AgentLogs(join(options.dataDir, 'logs', 'agents')),
    onExit: (agentId, info, tail, stderrLog) => {
      logWarn(`${agentId}: ${describeExit(info, tail)}`);
      if (remote.handleExit(agentId, info)) return;
      sessions.onAgentExit(agentId, info.code, info.signal, tail, stderrLog);
    },
  });
  const sessions: SessionManager = new SessionManager({
    dataDir: options.dataDir,
    agents,
    settings: () => settings.settings,
    emit: (sessionId, batch) => {
      events.emit('session.events', { sessionId, events: batch });
      // The batch is in the log already: the history index and search catch up from it.
      history.onEvents(sessionId, batch);
    },
    onChange: changed,
    // Search learns what its saved index holds of a restored session: its first change sends only what is new.
    restored: (sessionId, logSize, state) => history.restored(sessionId, logSize, state),
    closed: (sessionId) => history.closed(sessionId),
    opened: (sessionId) => {
      tabs.open(sessionId);
      changed();
      // A folder's first checkpoint stores every file (seconds in a big project): taken now, not at the first prompt.
      const opened = sessions.live(sessionId);
      if (opened) checkpoints.warm(opened.roots);
    },
    cancelGraceMs: options.cancelGraceMs,
    updateSettings: (mutate) => settings.update(mutate),
    turnHooks: {
      beforeTurn: (session, turnId) =>
        checkpoints.beforeTurn(checkpointPort(session), turnId).catch((error: unknown) => {
          logError(`Checkpoint before a turn of ${session.id}`, error);
          return [];
        }),
      afterTurn: (session, turnId) =>
        void checkpoints.afterTurn(checkpointPort(session), turnId).catch((error: unknown) => logError(`Checkpoint after a turn of ${session.id}`, error)),
    },
  });
  // ---- remote agents (issue 26): connection state and reconnecting with backoff
  const remote = new RemoteAgents({
    endpoint: (agentId) => agents.find(agentId)?.launch?.remote,
    connect: (agentId) => agents.ensureRunning(agentId),
    detachSessions: (agentId, message) =>
      sessions.detachForReconnect(agentId, message).map((session) => ({
        reconnect: () => sessions.connect(session),
        notice: (text: string) => session.record({ kind: 'notice', level: 'info', message: text }),
      })),
    changed,
    backoffMs: options.remoteBackoffMs,
  });
  // ---- checkpoints (issue 24)
  const checkpoints = new CheckpointService({ dataDir: options.dataDir, settings: () => settings.settings.checkpoints, env: options.checkpointEnv });
  /** A session as checkpoints see it: what they record after the tab closed is dropped (its log is closed). */
  const checkpointPort = (session: Session): CheckpointSession => ({
    id: session.id,
    get roots() {
      return session.roots;
    },
    get turn() {
      return session.turn;
    },
    fold: () => session.fold(),
    record: (body) => (sessions.live(session.id) === session ? session.record(body) : undefined),
  });
  for (const report of checkpoints.recover()) {
    logWarn(report);
    notice('warning', report);
  }
  // Pruning by age and space, once the start is over (it may run git gc).
  const pruneTimer = setTimeout(
    () => void checkpoints.prune().catch((error: unknown) => logError('Pruning checkpoints', error)),
    options.checkpointPruneDelayMs ?? 60_000,
  );
  pruneTimer.unref?.();
  // ---- end of checkpoints
  const tabs = new TabsStore(options.dataDir);
  // ---- The protocol inspector (issue 27).
  const inspector: Inspector = new Inspector({
    dataDir: options.dataDir,
    settings: () => settings.settings,
    updateSettings: (mutate) => settings.update(mutate),
    traffic: (agentId) => agents.traffic(agentId),
    launchEnv: (agentId) => agents.launchSpec(agentId)?.env ?? {},
    recordingFile: (agentId) => agents.recordingFile(agentId),
    secrets: agents.secrets,
    emit: (payload) => events.emit('inspector.traffic', payload),
  });
  // ---- end of the protocol inspector.
  const history: HistoryService = new HistoryService({
    dataDir: options.dataDir,
    sessions: historySessions(sessions),
    agents,
    tabs,
    settings: () => settings.settings,
    notice,
    changed,
  });
  const sessionRows = sessionHandlers({ sessions, agents, tabs, changed, isPlaceholder: (sessionId) => tabRestore.isPlaceholder(sessionId) });
  // Worktree sessions (docs/WORKTREES.md): started through the same `session.new` row.
  const worktreeStore = new WorktreeStore(options.dataDir);
  if (worktreeStore.error) notice('warning', `The list of worktree sessions was unreadable: ${worktreeStore.error}`);
  const worktrees = new WorktreeService({
    dataDir: options.dataDir,
    settings: () => settings.settings,
    store: worktreeStore,
    startSession: async (agentId, cwd) => (await sessionRows['session.new']({ agentId, cwd })).sessionId,
    closeSession: (sessionId) => {
      sessions.close(sessionId);
      tabs.close(sessionId);
    },
    sessionExists: (sessionId) => sessions.sessions.has(sessionId) || existsSync(sessions.logFile(sessionId)),
    changed,
  });
  const registry: RegistryService = new RegistryService(
    {
      dataDir: options.dataDir,
      settings: () => settings.settings,
      publishCatalog: (catalog) => events.emit('registry.catalog', catalog),
      progress: (progress) => events.emit('install.progress', progress),
      changed,
      notice,
      agentRunning: (agentId) => Boolean(agents.connection(agentId)),
      stopAgent: (agentId) => agents.stop(agentId),
      secrets: agents.secrets,
      agentInstalled: (agentId) => sessions.agentInstalled(agentId),
      agentUninstalled: (agentId) => sessions.agentUninstalled(agentId),
    },
    options.registry,
  );

  const state = (): AppState => {
    const settingsNotice = settings.error ? [{ id: 'settings', level: 'error' as const, message: settings.error }] : [];
    return {
      host: options.host,
      platform: process.platform,
      dataDir: options.dataDir,
      settingsPath: settings.file,
      defaultCwd: options.defaultCwd ?? homedir(),
      agents: agents.summaries().map((agent) => withRemote(agent, remote)),
      sessions: sessions.summaries().map((summary) => {
        const worktree = worktreeStore.get(summary.sessionId);
        return worktree ? { ...summary, worktree: { branch: worktree.branch, base: worktree.base } } : summary;
      }),
      tabs: tabs.current(),
      ...(tabRestore.restoring > 0 ? { restoring: tabRestore.restoring } : {}),
      ...(tabRestore.placeholders() ? { tabsNotBack: tabRestore.placeholders() } : {}),
      notices: [...settingsNotice, ...events.notices()],
    };
  };

  // Read now: a session the person opens before the restore starts must not replace the saved list.
  const saved = tabs.load();
  // Every saved tab is listed from the first answer, in its place; each is read back after it.
  const tabRestore = new TabRestore(
    {
      tabs,
      restore: (sessionId) => sessions.restore(sessionId),
      close: (sessionId) => sessions.close(sessionId),
      describe: (sessionId) => {
        const known = history.catalog.get(sessionId);
        return known ? { title: known.title, agentName: known.agentName } : logHead(sessions.logFile(sessionId));
      },
      changed,
    },
    saved,
  );
  const restoreTabs = (): Promise<void> => {
    if (saved.error) notice('warning', saved.error);
    // Collected before the app.state that tells the page the last tab is back (a timer of 0) goes out.
    return tabRestore.run().then(() => sessions.restoredTabs());
  };
  // A host killed while making or removing a worktree left a journal entry: finish or undo it first.
  const recovered = worktrees.engine.recover().catch((error) => logError('Recovering unfinished worktree operations', error));
  // A window's first answer goes out before the restores (reading long sessions blocks the event
  // loop that serves the page): they start once it is sent, or after a while if no window asks.
  let firstAnswered = (): void => {};
  const restoreAfter = options.restoreAfterFirstAnswerMs;
  const answeredOrLate =
    restoreAfter === undefined
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const late = setTimeout(resolve, restoreAfter);
          firstAnswered = () => {
            clearTimeout(late);
            setImmediate(resolve);
          };
        });
  const ready = recovered.then(() => answeredOrLate).then(restoreTabs);
  // Index logs written while the app was not running (or before a crash) in the background.
  void ready
    .then(() => history.reconcile())
    .catch((error) => logError('Reconciling the history index with the session logs', error))
    // The search worker (a thread and its index's load) once the start settled, unless a search started it first.
    .then(() => history.startSearchSoon());

  const sessionRestart = sessionRows['agent.restart'];
  const handlers: Handlers = {
    'app.state': async () => {
      // Not the tabs' restore (seconds for long sessions): the page shows the agent list at once,
      // and the restored tabs arrive with the `app.state` event `restoreTabs` sends.
      await recovered;
      firstAnswered();
      return state();
    },
    ...sessionRows,
    ...windowHandlers(sessions, (sessionId) => tabRestore.settled(sessionId)),
    ...firstPaintHandlers(sessions, options.dataDir, { defaultCwd: options.defaultCwd ?? homedir() }),
    ...reviewHandlers({ current: (sessionId) => sessions.current(sessionId), roots: (sessionId) => sessions.get(sessionId).roots }),
    ...fsHandlers({
      defaultFolder: () => options.defaultCwd ?? homedir(),
      sessionFolders: (sessionId) => {
        const session = sessions.get(sessionId);
        return { cwd: session.fold().cwd, roots: session.roots };
      },
    }),
    ...settingsHandlers(settings, changed),
    ...remoteAgentHandlers({ settings, secrets: agents.secrets, changed, forget: (agentId) => remote.forget(agentId), restart: sessionRestart }),
    ...registryHandlers(registry),
    ...historyHandlers(history),
    ...logHandlers(options.openPath),
    ...worktreeHandlers(worktrees, { sessionTitle: (sessionId) => sessions.live(sessionId)?.fold().title ?? null, openPath: options.openPath }),
    ...checkpointHandlers(checkpoints, (sessionId) => checkpointPort(sessions.get(sessionId))),
    ...inspectorHandlers(inspector),
  };

  return {
    options,
    settings,
    agents,
    sessions,
    tabs,
    history,
    registry,
    worktrees,
    handlers,
    ready,
    on: (listener) => events.on(listener),
    emit: (name, payload) => events.emit(name, payload),
    changed,
    notice,
    state,
    busyReasons: () => {
      const turns = [...sessions.sessions.values()]
        .filter((session) => session.turn !== null)
        .map((session) => session.fold())
        .map((state) => `A turn is running in “${state.title || state.agentName || state.sessionId}”.`);
      return [...turns, ...registry.installer.activeOperations()];
    },
    dispose: async () => {
      await appStateSaver?.flush();
      remote.dispose();
      clearTimeout(pruneTimer);
      inspector.dispose();
      await sessions.disposeAll();
      await history.dispose();
      await agents.stopAll();
      settings.dispose();
    },
  };
}

/** History's narrow view of the session manager: its actions and a read-only look at open sessions. */
function historySessions(sessions: SessionManager): HistorySessions {
  return {
    flush: () => sessions.flush(),
    logFile: (sessionId) => sessions.logFile(sessionId),
    restore: (sessionId) => sessions.restore(sessionId),
    open: (spec, beforeShown) => sessions.open(spec, beforeShown),
    forkAcp: (agentId, parent) => sessions.forkAcp(agentId, parent),
    recordEvent: (sessionId, body) => sessions.recordEvent(sessionId, body),
    close: (sessionId) => sessions.close(sessionId),
    restoringNow: (sessionId) => sessions.restoringNow(sessionId),
    live: (sessionId) => {
      const session = sessions.live(sessionId);
      return session && { state: session.fold(), logFile: session.log.file, agentId: session.agentId, acpSessionId: session.acpSessionId };
    },
  };
}
