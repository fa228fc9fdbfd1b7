import { oversizeNotice } from '../acp/rawTap';
import { decodeElicitationRequest, decodeWireError } from '../acp/decode/controls';
import { randomUUID } from 'node:crypto';
import type { Settings } from '../../src-shared/settings';
import { type ClientSide, ELICITATION_MODES } from '../acp/clientSide';
import { applyUpdateQuirks } from '../quirks/index';
import { missingFileReadsEmpty } from '../quirks/geminiCli';
import { notAbsoluteReason } from '../fs/absolutePath';
import { isInsideRoots, readTextFile, writeTextFileAtomic } from '../fs/fileAccess';
import { Terminal } from '../terminals/terminalManager';
import type { AcpRoutes } from './acpRoutes';
import { rememberedOption } from './permissionMemory';
import type { Session } from './session';
import { isWithdrawal, withdrawnElicitationNote, withdrawnPermissionNote } from './withdrawn';
import { AcpErrorCode, UserError } from '../errors/errors';

export interface ClientHandlerDeps {
  routes: AcpRoutes;
  settings: () => Settings;
  /** Open sessions (for stdout garbage and requests that name no session). */
  sessions: () => Iterable<Session>;
  /** An open session by app id. */
  session: (sessionId: string) => Session | undefined;
  /** URL elicitations by `elicitationId` → app session, for `elicitation/complete`. */
  urlElicitations: Map<string, string>;
  /** Logs something dropped on purpose (an update for a session the agent does not own). */
  log: (message: string) => void;
  agentName: (agentId: string) => string;
}

/**
 * The client side of the protocol for one agent connection (Zed's `ClientDelegate` in
 * `agent_servers/src/acp.rs`): updates, permission, fs, terminals and elicitation, each routed
 * to a session of *this* agent by its ACP session id.
 */
export function createClientSide(agentId: string, deps: ClientHandlerDeps): ClientSide {
  const sessionFor = (acpSessionId: unknown): Session => {
    const session = deps.routes.find(agentId, String(acpSessionId));
    if (!session) throw new UserError(`Unknown session ${String(acpSessionId)}`, AcpErrorCode.invalidParams);
    return session;
  };
  const ofAgent = () => [...deps.sessions()].filter((session) => session.agentId === agentId);
  return {
    onSessionUpdate: (acpSessionId, events) => {
      const session = deps.routes.find(agentId, acpSessionId);
      if (!session) {
        if (deps.routes.boundElsewhere(agentId, acpSessionId)) {
          // Another agent's session: never shown there, only logged.
          deps.log(`Dropped a session/update from ${deps.agentName(agentId)} for session ${acpSessionId}, which belongs to another agent.`);
          return;
        }
        // Agents may send updates (commands, modes) before their `session/new` answer arrives.
        for (const event of events) deps.routes.holdEarly(agentId, acpSessionId, event);
        return;
      }
      // History replayed by `session/load` is already in our log: keep the log as the truth.
      if (session.replaying) return;
      for (const event of events)
        for (const body of applyUpdateQuirks(agentId, session, event, (terminalId) => session.terminals.has(terminalId), session.state.cwd))
          session.record(body);
    },
    onGarbage: (line) => {
      // Shown where someone is looking: a running turn, else a session still connecting.
      const sessions = ofAgent();
      const target = sessions.find((session) => session.turn) ?? sessions.find((session) => session.connecting);
      target?.record({ kind: 'notice', level: 'warning', message: `The agent printed something that is not ACP on stdout (ignored): ${line}` });
    },
    onOversize: (bytes) => {
      const sessions = ofAgent();
      const target = sessions.find((session) => session.turn) ?? sessions.find((session) => session.connecting);
      target?.record(oversizeNotice(bytes));
    },
    onRejectedRequest: (method, raw, error) => {
      const session = deps.routes.find(agentId, String(raw.sessionId)) ?? ofAgent().find((candidate) => candidate.turn);
      session?.record({
        kind: 'acp.rejected',
        method,
        params: raw,
        error: decodeWireError(error),
        note: `The agent sent a ${method} request this app could not accept (${String(error.message ?? 'invalid')}); it was answered with an error`,
      });
    },
    requestPermission: async (raw, signal, decode) => {
      const session = sessionFor(raw.sessionId);
      const requestId = randomUUID();
      // What is asked (the tool call, the options, and the title, explanation and subject when the agent sends them).
      const { title, description, subject, ...asked } = decode(requestId);
      const request = {
        kind: 'permission.requested' as const,
        requestId,
        ...asked,
        ...(title !== undefined ? { title, description, subject } : {}),
        ...(raw._meta !== undefined ? { _meta: raw._meta } : {}),
      };
      const { options } = asked;
      // "Always" answered before for this agent and tool kind: answer the same way, visibly.
      const remembered = rememberedOption(deps.settings().alwaysAllow, agentId, session.toolKindOf(asked.toolCallId, asked.tool), options);
      if (remembered) {
        session.record(request);
        session.record({ kind: 'permission.resolved', requestId, optionId: remembered.optionId, reason: 'remembered' });
        return { outcome: { outcome: 'selected', optionId: remembered.optionId } };
      }
      const answer = session.permissions.add(requestId, session.id, { outcome: { outcome: 'cancelled' } });
      session.record(request);
      signal.addEventListener('abort', () => {
        if (session.permissions.resolve(requestId, { outcome: { outcome: 'cancelled' } })) {
          session.record({ kind: 'permission.resolved', requestId, optionId: null, reason: 'the agent withdrew the request' });
          // `$/cancel_request`: the card closes, and the transcript says why (issue 27).
          if (isWithdrawal(signal)) session.record({ kind: 'notice', level: 'info', message: withdrawnPermissionNote(asked.tool, title) });
        }
      });
      return (await answer) as never;
    },
    readTextFile: async (params) => {
      const session = sessionFor(params.sessionId);
      refuseRelative(session, 'fs/read_text_file', 'path', params.path, { sessionId: params.sessionId, path: params.path });
      await checkOutside(session, params.path, 'read', deps.settings());
      try {
        return { content: readTextFile(params.path, params.line, params.limit) };
      } catch (error) {
        if (missingFileReadsEmpty(agentId, error, isInsideRoots(params.path, session.roots))) return { content: '' };
        throw new UserError(`Cannot read ${params.path}: ${(error as Error).message}`, AcpErrorCode.resourceNotFound);
      }
    },
    writeTextFile: async (params) => {
      const session = sessionFor(params.sessionId);
      refuseRelative(session, 'fs/write_text_file', 'path', params.path, { sessionId: params.sessionId, path: params.path });
      await checkOutside(session, params.path, 'write', deps.settings());
      try {
        const { oldText } = writeTextFileAtomic(params.path, params.content);
        session.record({ kind: 'file.written', path: params.path, oldText, newText: params.content });
        return {};
      } catch (error) {
        throw new UserError(`Cannot write ${params.path}: ${(error as Error).message}`, AcpErrorCode.internal);
      }
    },
    createTerminal: async (params) => {
      const session = sessionFor(params.sessionId);
      if (params.cwd != null)
        refuseRelative(session, 'terminal/create', 'cwd', params.cwd, { sessionId: params.sessionId, command: params.command, cwd: params.cwd });
      const cwd = params.cwd ?? session.fold().cwd;
      const env: Record<string, string> = {};
      for (const variable of params.env ?? []) env[variable.name] = variable.value;
      let terminalId = '';
      const terminal = new Terminal({ command: params.command, args: params.args ?? [], cwd, env, outputByteLimit: params.outputByteLimit ?? null }, (data) =>
        session.record({ kind: 'terminal.output', terminalId, data }),
      );
      terminalId = terminal.id;
      session.terminals.set(terminal.id, terminal);
      session.record({ kind: 'terminal.created', terminalId, command: params.command, args: params.args ?? [], cwd });
      void terminal.exited.then((exit) => session.record({ kind: 'terminal.exited', terminalId, ...exit }));
      return { terminalId };
    },
    terminalOutput: async (params) => {
      const terminal = sessionFor(params.sessionId).terminal(params.terminalId);
      return {
        output: terminal.output.text(),
        truncated: terminal.output.truncated,
        exitStatus: terminal.exit ? { exitCode: terminal.exit.exitCode, signal: terminal.exit.signal } : null,
      };
    },
    waitForTerminalExit: async (params) => {
      const exit = await sessionFor(params.sessionId).terminal(params.terminalId).exited;
      return { exitCode: exit.exitCode, signal: exit.signal };
    },
    killTerminal: async (params) => {
      sessionFor(params.sessionId).terminal(params.terminalId).kill();
      return {};
    },
    releaseTerminal: async (params) => {
      const session = sessionFor(params.sessionId);
      session.terminal(params.terminalId).kill();
      session.terminals.delete(params.terminalId);
      session.record({ kind: 'terminal.released', terminalId: params.terminalId });
      return {};
    },
    createElicitation: async (raw, signal, scope) => {
      // Session-scoped by its own `sessionId`; request-scoped by the request it names.
      let session: Session | undefined;
      if (raw.sessionId !== undefined && raw.sessionId !== null) session = sessionFor(raw.sessionId);
      else if (scope.requestSessionId) session = sessionFor(scope.requestSessionId);
      else if (scope.owner) session = deps.session(scope.owner);
      if (!session) throw new UserError('This elicitation names no session or request of this client.', AcpErrorCode.invalidParams);
      const mode = String(raw.mode ?? 'form');
      if (!ELICITATION_MODES.has(mode)) {
        // rfds-elicitation: a mode the client did not declare is answered -32602, never shown as a form.
        const error = { code: AcpErrorCode.invalidParams, message: `Elicitation mode "${mode}" is not supported by this client.` };
        session.record({
          kind: 'acp.rejected',
          method: 'elicitation/create',
          params: raw,
          error,
          note: `The agent asked a question in a way this app cannot show (mode "${mode}")`,
        });
        throw new UserError(error.message, AcpErrorCode.invalidParams);
      }
      const requestId = randomUUID();
      const answer = session.elicitations.add(requestId, session.id, { action: 'cancel' });
      if (mode === 'url' && typeof raw.elicitationId === 'string') deps.urlElicitations.set(raw.elicitationId, session.id);
      const request = decodeElicitationRequest(raw);
      session.record({ kind: 'elicitation.requested', requestId, request });
      const owner = session;
      signal.addEventListener('abort', () => {
        if (owner.elicitations.resolve(requestId, { action: 'cancel' })) {
          owner.record({ kind: 'elicitation.resolved', requestId, action: 'cancel' });
          if (isWithdrawal(signal)) owner.record({ kind: 'notice', level: 'info', message: withdrawnElicitationNote(request) });
        }
      });
      const result = await answer;
      if (result.action !== 'accept' && typeof raw.elicitationId === 'string') deps.urlElicitations.delete(raw.elicitationId);
      // URL mode: `accept` is the person's consent; there is no content (rfds-elicitation).
      if (result.action === 'accept') return mode === 'url' ? { action: 'accept' } : { action: 'accept', content: result.content ?? {} };
      return { action: result.action };
    },
    completeElicitation: (params) => {
      // Only the session that started this URL elicitation; unknown or finished ids are ignored.
      const elicitationId = String(params.elicitationId ?? '');
      const sessionId = deps.urlElicitations.get(elicitationId);
      const session = sessionId ? deps.session(sessionId) : undefined;
      if (!session || session.agentId !== agentId) return;
      deps.urlElicitations.delete(elicitationId);
      session.record({ kind: 'elicitation.completed', elicitationId });
    },
  };
}

/**
 * ACP requires absolute paths. A relative one is answered -32602 and shown in the session; it is
 * never resolved, so the app's own working folder is never read, written or run in.
 */
function refuseRelative(session: Session, method: string, field: string, path: string, shown: unknown): void {
  const reason = notAbsoluteReason(path);
  if (reason === null) return;
  const message = `${method} needs an absolute ${field} (ACP requires absolute paths), but ${JSON.stringify(path)} is not one: ${reason}. Nothing was done.`;
  const error = { code: AcpErrorCode.invalidParams, message };
  session.record({ kind: 'acp.rejected', method, params: shown, error, note: `The agent sent a ${field} that is not an absolute path; it was refused` });
  throw new UserError(message, AcpErrorCode.invalidParams);
}

/** Reads and writes outside the workspace folders ask the person first (or are refused, per setting). */
async function checkOutside(session: Session, path: string, what: 'read' | 'write', settings: Settings): Promise<void> {
  if (isInsideRoots(path, session.roots)) return;
  if (settings.outsideWorkspace === 'deny') {
    throw new UserError(`${path} is outside the session's workspace; the app is set to refuse such access.`, AcpErrorCode.invalidParams);
  }
  const requestId = randomUUID();
  const answer = session.permissions.add(requestId, session.id, { outcome: { outcome: 'cancelled' } });
  session.record({
    kind: 'permission.requested',
    requestId,
    toolCallId: `outside-${requestId}`,
    tool: {
      title: `${what === 'read' ? 'Read' : 'Write'} ${path} (outside the workspace)`,
      toolKind: what === 'read' ? 'read' : 'edit',
      locations: [{ path }],
    },
    options: [
      { optionId: 'allow', name: `Allow this ${what}`, kind: 'allow_once' },
      { optionId: 'reject', name: 'Refuse', kind: 'reject_once' },
    ],
  });
  const result = await answer;
  if (result.outcome.outcome !== 'selected' || result.outcome.optionId !== 'allow') {
    throw new UserError(`The person refused access to ${path}, which is outside the workspace.`, AcpErrorCode.invalidParams);
  }
}
