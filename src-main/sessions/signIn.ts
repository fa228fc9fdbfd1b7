import type { AuthMethodInfo } from '../../src-shared/session/controls';
import type { AgentManager } from '../agents/agentManager';
import { UserError } from '../errors/errors';
import { legacyTerminalAuth } from '../quirks/claudeCodeAcp';
import { readAgentEnv, writeAgentEnv } from '../store/secretStore';
import { Terminal } from '../terminals/terminalManager';
import type { Session } from './session';
import { logged } from '../log/mainLog';
import { isObject } from '../../src-shared/acp/read';

export interface SignInDeps {
  agents: AgentManager;
  /** Open sessions. */
  sessions: () => Iterable<Session>;
  isOpen: (session: Session) => boolean;
  connect: (session: Session) => Promise<unknown>;
  /** Detaches every session of an agent about to be stopped; returns the ones to reconnect. */
  stopAgentSessions: (agentId: string, message: string) => Session[];
  restartAgent: (agentId: string) => Promise<void>;
}

/** Records `auth.required` with the agent's sign-in methods. */
export function requireAuth(agents: AgentManager, session: Session, message?: string): void {
  const methods = agents.authMethods(session.agentId);
  const agentName = session.fold().agentName;
  session.record({
    kind: 'auth.required',
    methods,
    message: methods.length
      ? `${agentName} needs you to sign in.${authReason(message)}`
      : `${agentName} says it needs authentication but offers no sign-in method: ${message ?? ''}`,
  });
}

/** The agent's own words when it says more than "authentication required" (a refused key, an expired login). */
function authReason(message: string | undefined): string {
  return message && !/^authentication required\.?$/i.test(message.trim()) ? ` It says: ${message}` : '';
}

/**
 * Sign-in and sign-out (protocol-v1-authentication, rfds-auth-methods): `agent` calls
 * `authenticate`; `env_var` stores the values (secrets in the secret store), restarts the agent
 * with them and then calls `authenticate`; `terminal` runs the agent's own command with the
 * method's extra args and env in an interactive terminal of the session and retries when it
 * exits 0. What sign-in blocked (a connect, a prompt) is retried after success.
 */
export class SignIn {
  constructor(private readonly deps: SignInDeps) {}

  async start(session: Session, methodId: string, env?: Record<string, string>): Promise<{ terminalId?: string }> {
    const agents = this.deps.agents;
    const agentName = session.fold().agentName;
    // Methods come from the last `initialize`; an agent that died since can still be signed in
    // with env values (the restart below) or a terminal.
    await agents.ensureRunning(session.agentId).catch(logged(`Starting ${session.agentId} to sign in (the methods of its last start are used)`, 'debug'));
    const method = agents.authMethods(session.agentId).find((candidate) => candidate.id === methodId);
    if (!method) throw new UserError(`"${methodId}" is not one of ${agentName}'s sign-in methods.`);
    if (env && method.type !== 'env_var') throw new UserError(`The sign-in method "${method.name}" takes no values.`);
    try {
      switch (method.type) {
        case 'agent': {
          const connection = await agents.ensureRunning(session.agentId);
          await connection.authenticate(methodId, session.id);
          this.succeeded(session, methodId);
          return {};
        }
        case 'env_var':
          await this.withEnv(session, method, methodId, env ?? {});
          return {};
        case 'terminal':
          return { terminalId: this.inTerminal(session, method, methodId) };
        default:
          throw new UserError(
            `${agentName} offers "${method.name}", a sign-in method of type "${method.type}" that this app does not support yet. Use another method.`,
          );
      }
    } catch (error) {
      session.record({ kind: 'notice', level: 'error', message: `Sign-in with "${method.name}" failed: ${(error as Error).message}` });
      throw error;
    }
  }

  /** `env_var`: check and keep the values, restart the agent with them, then `authenticate`. */
  private async withEnv(session: Session, method: AuthMethodInfo, methodId: string, values: Record<string, string>): Promise<void> {
    const agents = this.deps.agents;
    const vars = method.vars ?? [];
    const names = new Set(vars.map((v) => v.name));
    for (const name of Object.keys(values)) {
      if (!names.has(name)) throw new UserError(`${name} is not one of the values this sign-in method asks for.`);
    }
    const stored = readAgentEnv(agents.secrets, session.agentId);
    const launchEnv = agents.find(session.agentId)?.launch?.env ?? {};
    const next = { ...stored };
    const missing: string[] = [];
    for (const v of vars) {
      const name = v.name;
      const value = values[name];
      if (value !== undefined && value !== '') next[name] = value;
      else if (!v.optional && !next[name] && !launchEnv[name]) missing.push(v.label);
    }
    if (missing.length) throw new UserError(`Fill in ${missing.join(', ')}.`);
    writeAgentEnv(agents.secrets, session.agentId, next);
    // The environment is read when the process starts: restart, then sign in on the new process.
    const affected = this.deps.stopAgentSessions(session.agentId, 'The agent was restarted to sign in.');
    const connection = await agents.restart(session.agentId);
    await connection.authenticate(methodId, session.id);
    this.succeeded(session, methodId, affected);
  }

  /** `terminal`: the agent's own command plus the method's args and env, in an interactive terminal. */
  private inTerminal(session: Session, method: AuthMethodInfo, methodId: string): string {
    const state = session.fold();
    const agentLaunch = this.deps.agents.launchSpec(session.agentId);
    if (!agentLaunch) throw new UserError(`${state.agentName} is not installed.`);
    // The legacy `_meta["terminal-auth"]` form names its own command (quirks/claudeCodeAcp.ts).
    const legacy = isObject(method.raw) && method.raw.type !== 'terminal' ? legacyTerminalAuth(method.raw) : null;
    const launch = legacy ? { ...agentLaunch, command: legacy.command, args: [] } : agentLaunch;
    const extraArgs = legacy ? legacy.args : (method.args ?? []);
    const extraEnv: Record<string, string> = legacy ? { ...legacy.env } : { ...method.env };
    // One sign-in terminal at a time per session.
    for (const [id, terminal] of session.terminals) {
      if (!terminal.interactive || terminal.exit) continue;
      terminal.kill();
      session.terminals.delete(id);
    }
    const args = [...launch.args, ...extraArgs];
    const cwd = launch.cwd ?? state.cwd;
    let terminalId = '';
    const terminal = new Terminal({ command: launch.command, args, cwd, env: { ...launch.env, ...extraEnv }, interactive: true }, (data) =>
      session.record({ kind: 'terminal.output', terminalId, data }),
    );
    terminalId = terminal.id;
    session.terminals.set(terminalId, terminal);
    session.record({ kind: 'terminal.created', terminalId, command: launch.command, args, cwd, interactive: true });
    void terminal.exited.then((exit) => {
      session.record({ kind: 'terminal.exited', terminalId, ...exit });
      // Closed session, or replaced by a newer sign-in terminal: nothing more to say.
      if (!this.deps.isOpen(session) || session.terminals.get(terminalId) !== terminal) return;
      if (exit.exitCode === 0) {
        this.succeeded(session, methodId);
      } else {
        const how = exit.signal ? `was stopped (${exit.signal})` : `ended with code ${exit.exitCode}`;
        session.record({ kind: 'notice', level: 'warning', message: `The sign-in in the terminal ${how}. Try again, or use another method.` });
      }
    });
    return terminalId;
  }

  /** Sign-in worked: every session of the agent that waited for it carries on. */
  succeeded(session: Session, methodId: string, reconnect: Session[] = []): void {
    const waiting = [...this.deps.sessions()].filter(
      (other) => other.agentId === session.agentId && (other === session || other.fold().authMethods || reconnect.includes(other)),
    );
    for (const other of waiting) {
      if (other.fold().authMethods || other === session) other.record({ kind: 'auth.completed', methodId });
      const retry = other.takeRetryAfterSignIn();
      if (retry) retry();
      else if (!other.connection && !other.connecting && !other.fold().readonlyReason)
        void this.deps.connect(other).catch(logged(`Connecting session ${other.id} after signing in`, 'warn'));
      other.nextQueued();
    }
  }

  /** Signs out (`logout` when advertised) and forgets stored `env_var` values. */
  async logout(agentId: string): Promise<{ loggedOut: boolean; forgotValues: boolean }> {
    const agents = this.deps.agents;
    const connection = await agents.ensureRunning(agentId);
    let loggedOut = false;
    if (connection.supportsLogout) {
      await connection.logout();
      loggedOut = true;
    }
    const forgotValues = Object.keys(readAgentEnv(agents.secrets, agentId)).length > 0;
    if (forgotValues) writeAgentEnv(agents.secrets, agentId, {});
    if (!loggedOut && !forgotValues) {
      throw new UserError(
        `${agents.find(agentId)?.name ?? 'This agent'} does not support signing out (no auth.logout capability), and no sign-in values are stored for it.`,
      );
    }
    if (forgotValues) await this.deps.restartAgent(agentId);
    for (const session of this.deps.sessions()) {
      if (session.agentId === agentId) session.record({ kind: 'notice', level: 'info', message: 'Signed out. The agent may ask you to sign in again.' });
    }
    return { loggedOut, forgotValues };
  }
}
