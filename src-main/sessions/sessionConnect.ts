import type { Settings } from '../../src-shared/settings';
import { isAuthRequired } from '../acp/clientSide';
import { UserError } from '../errors/errors';
import type { AgentLink } from '../acp/agentLink';
import type { DecodedSession } from '../acp/dialects/dialect';
import type { AgentManager } from '../agents/agentManager';
import type { AcpRoutes } from './acpRoutes';
import type { Session } from './session';
import { decodeAgentInfo, decodeCapabilities } from '../acp/decode/controls';
import type { AgentCapabilities } from '../../src-shared/session/controls';

export interface ConnectDeps {
  agents: AgentManager;
  settings: () => Settings;
  routes: AcpRoutes;
  requireAuth: (session: Session, message?: string) => void;
}

/**
 * Connects a session to its agent (Zed's `AcpConnection::new_session` / `load_session` /
 * `resume_session`): `session/new` for a new one; `session/resume` or `session/load` for one
 * that has an ACP session id (restored, forked, opened from the agent's list); read-only when
 * the agent can do neither. Concurrent callers share one attempt.
 */
export function connectSession(session: Session, deps: ConnectDeps): Promise<AgentLink> {
  if (session.connection) return Promise.resolve(session.connection);
  return session.connectOnce(async () => {
    try {
      return await establish(session, deps);
    } catch (error) {
      const state = session.fold();
      if (isAuthRequired(error)) {
        if (!state.authMethods) deps.requireAuth(session, (error as Error).message);
      } else if (state.readonlyReason !== (error as Error).message) {
        // (A read-only session already says why: no second copy as an error notice.)
        session.record({ kind: 'notice', level: 'error', message: (error as Error).message });
      }
      throw error;
    }
  });
}

/** What every session setup request (new, load, resume, fork) carries, in the agent's version's shape. */
type SetupParams = { cwd: string; mcpServers: ReturnType<AgentLink['encodeMcpServers']>; additionalDirectories?: string[] };

/** The `cwd`, MCP servers and extra folders every session setup request (new, load, resume, fork) carries. */
export function setupParams(where: { cwd: string; additionalDirectories?: string[] }, connection: AgentLink, settings: Settings): SetupParams {
  const additional = where.additionalDirectories ?? [];
  return {
    cwd: where.cwd,
    mcpServers: connection.encodeMcpServers(settings.mcpServers),
    // Sent only to agents that advertise them (protocol-v1-session-setup); file access by the
    // agent to them is allowed either way: the person chose them.
    ...(additional.length > 0 && connection.supportsSession('additionalDirectories') ? { additionalDirectories: additional } : {}),
  };
}

async function establish(session: Session, deps: ConnectDeps): Promise<AgentLink> {
  const connection = await deps.agents.ensureRunning(session.agentId, session.fold().cwd ?? undefined);
  const previous = session.acpSessionId;
  const state = session.fold();
  if (session.roots.length > 1 && !connection.supportsSession('additionalDirectories') && session.firstTime('no additional folders')) {
    session.record({
      kind: 'notice',
      level: 'info',
      message: `${state.agentName} does not support additional workspace folders, so only ${state.cwd} is given to it as its workspace.`,
    });
  }
  const params = setupParams(state, connection, deps.settings());
  let how: 'new' | 'load' | 'resume' = 'new';
  let result: DecodedSession;
  const canLoad = connection.agentCapabilities.loadSession === true;
  // A session opened from the agent's list has no transcript here yet: `session/load`
  // brings its history, `session/resume` would not.
  const wantsHistory = canLoad && state.entries.length === 0;
  if (previous && connection.supportsSession('resume') && !wantsHistory) {
    how = 'resume';
    deps.routes.bind(session, previous);
    result = await connection.openSession('resume', { ...params, sessionId: previous }, session.id);
  } else if (previous && canLoad) {
    how = 'load';
    deps.routes.bind(session, previous);
    result = await session.whileReplaying(state.entries.length > 0, () => connection.openSession('load', { ...params, sessionId: previous }, session.id));
  } else if (previous) {
    // Neither resume nor load: the transcript stays, read-only, with "Start a new session
    // from here" rather than a new agent session that silently forgets everything.
    const reason = readonlyReason(state.agentName);
    session.record({ kind: 'session.readonly', reason });
    throw new UserError(reason);
  } else {
    result = await connection.openSession('new', params, session.id);
    deps.routes.bind(session, result.acpSessionId!);
  }
  session.attach(connection);
  session.record({
    kind: 'session.connected',
    acpSessionId: session.acpSessionId!,
    how,
    configOptions: result.configOptions,
    modes: result.modes,
    models: result.models,
    capabilities: decodeCapabilities(connection.agentCapabilities),
    agentInfo: decodeAgentInfo(connection.initializeResult?.agentInfo),
    ...(connection.protocolVersion !== null ? { protocolVersion: connection.protocolVersion } : {}),
  });
  // What the answer carried beyond the session (slash commands, in some versions).
  for (const body of result.events) session.record(body);
  // Opened from the agent's list with `session/resume` only: the agent keeps the
  // conversation but sends none of it, so the empty transcript needs a word.
  if (session.openedFromList && how === 'resume' && session.fold().entries.length === 0) {
    session.record({ kind: 'notice', level: 'info', message: 'The agent resumed this session but does not send its earlier messages.' });
  }
  session.markOpenedFromList(false);
  return connection;
}

/** Whether an agent's capabilities let a restored session reconnect (`session/resume` or `session/load`). */
export function canReconnect(capabilities: AgentCapabilities): boolean {
  return capabilities.loadSession || capabilities.sessionCapabilities.includes('resume');
}

export function readonlyReason(agentName: string): string {
  return `${agentName || 'This agent'} cannot resume or load earlier sessions, so this conversation cannot go on here. Start a new session from here to continue with the same agent and folder.`;
}
