import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import type { AppState } from '../../src-shared/ipc/appState';
import type { Handlers } from '../../src-shared/ipc/contract';
import { describeExit } from '../acp/agentWire';
import { AgentManager } from '../agents/agentManager';
import { fsHandlers } from '../fs/fsHandlers';
import { historyHandlers } from '../history/historyHandlers';
import { HistoryService, type HistorySessions } from '../history/historyService';
import { logHandlers } from '../log/logHandlers';
import { logError, logWarn, openMainLog } from '../log/mainLog';
import { registryHandlers } from '../registry/registryHandlers';
import { RegistryService } from '../registry/registryService';
import { SessionManager } from '../sessions/sessionManager';
import { settingsHandlers } from '../store/settingsHandlers';
import { SettingsStore } from '../store/settingsStore';
import { protocolFor } from '../../src-shared/settings';
import { TabsStore } from '../store/tabsStore';
import { agentDefinitions } from './agentDefinitions';
import type { AppCore, AppCoreOptions } from './appCore';
import { AppEvents } from './appEvents';
import { sessionHandlers } from './sessionHandlers';
import { Inspector, inspectorHandlers } from './inspector';

/**
 * The composition root: builds every service once, hands each the few functions it needs (no
 * service sees the core), and joins their slices of the handler table.
 */
export function createCore(options: AppCoreOptions): AppCore {
  mkdirSync(options.dataDir, { recursive: true });
  openMainLog(options.dataDir);
  const events = new AppEvents(() => state());
  const changed = () => events.changed();
  const notice = events.notice.bind(events);

  const settings = new SettingsStore(options.dataDir);
  settings.watch(changed);
  const agents: AgentManager = new AgentManager({
    definitions: () => agentDefinitions(settings.settings, registry.definitions()),
    clientSide: (agentId) => sessions.clientSide(agentId),
    initializeTimeoutMs: options.initializeTimeoutMs ?? 60_000,
    secrets: options.secrets,
    startAgent: options.startAgent,
    protocol: (agentId) => protocolFor(settings.settings, agentId),
    recorder: (agentId) => inspector.recorder(agentId),
    onChange: changed,
    onExit: (agentId, info, tail) => {
      logWarn(`${agentId}: ${describeExit(info, tail)}`);
      sessions.onAgentExit(agentId, info.code, info.signal, tail);
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
    opened: (sessionId) => {
      tabs.open(sessionId);
      changed();
    },
    cancelGraceMs: options.cancelGraceMs,
    updateSettings: (mutate) => settings.update(mutate),
  });
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
      agents: agents.summaries(),
      sessions: sessions.summaries(),
      tabs: tabs.current(),
      notices: [...settingsNotice, ...events.notices()],
    };
  };

  const restoreTabs = async (): Promise<void> => {
    const saved = tabs.load();
    if (saved.error) notice('warning', saved.error);
    const open: string[] = [];
    for (const sessionId of saved.open) {
      try {
        if (await sessions.restore(sessionId)) open.push(sessionId);
      } catch (error) {
        logError(`Restoring session ${sessionId}`, error);
        notice('error', `Could not restore a session (${sessionId}): ${(error as Error).message}`);
      }
    }
    tabs.set(open, saved.active && open.includes(saved.active) ? saved.active : (open[0] ?? null));
    changed();
  };
  const ready = restoreTabs();
  // Index logs written while the app was not running (or before a crash) in the background.
  void ready.then(() => history.reconcile()).catch((error) => logError('Reconciling the history index with the session logs', error));

  const handlers: Handlers = {
    'app.state': async () => {
      await ready;
      return state();
    },
    ...sessionHandlers({ sessions, agents, tabs, changed }),
    ...fsHandlers({
      defaultFolder: () => options.defaultCwd ?? homedir(),
      sessionFolders: (sessionId) => {
        const session = sessions.get(sessionId);
        return { cwd: session.fold().cwd, roots: session.roots };
      },
    }),
    ...settingsHandlers(settings, changed),
    ...registryHandlers(registry),
    ...historyHandlers(history),
    ...logHandlers(options.openPath),
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
    live: (sessionId) => {
      const session = sessions.live(sessionId);
      return session && { state: session.fold(), logFile: session.log.file, agentId: session.agentId, acpSessionId: session.acpSessionId };
    },
  };
}
