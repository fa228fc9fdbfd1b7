import { resolve } from 'node:path';
import type { Handlers } from '../../src-shared/ipc/contract';
import type { AgentManager } from '../agents/agentManager';
import { UserError } from '../errors/errors';
import { decodeContentBlocks } from '../acp/decode/content';
import { isDirectory } from '../fs/isDirectory';
import type { SessionManager } from '../sessions/sessionManager';
import type { TabsStore } from '../store/tabsStore';

type SessionRows =
  | 'session.new'
  | 'session.events'
  | 'session.prompt'
  | 'session.cancel'
  | 'session.open'
  | 'session.close'
  | 'tabs.set'
  | 'permission.respond'
  | 'elicitation.respond'
  | 'config.set'
  | 'mode.set'
  | 'terminal.input'
  | 'terminal.resize'
  | 'terminal.cancel'
  | 'tool.cancel'
  | 'auth.start'
  | 'agent.restart'
  | 'agent.stderr'
  | 'agent.logout';

export interface SessionHandlerDeps {
  sessions: SessionManager;
  agents: Pick<AgentManager, 'find' | 'stderr'>;
  tabs: TabsStore;
  changed: () => void;
  /** A saved tab whose session is not read back (yet): kept by `tabs.set` in the place the person gives it. */
  isPlaceholder?: (sessionId: string) => boolean;
}

/** The sessions' rows of the handler table (and the agent rows that act on an agent's sessions); only SessionManager's public API. */
export function sessionHandlers({ sessions, agents, tabs, changed, isPlaceholder = () => false }: SessionHandlerDeps): Pick<Handlers, SessionRows> {
  const requireAgent = (agentId: string) => {
    const agent = agents.find(agentId);
    if (!agent) throw new UserError(`Unknown agent "${agentId}".`);
    return agent;
  };
  return {
    'session.new': async ({ agentId, cwd, additionalDirectories }) => {
      const agent = requireAgent(agentId);
      const folder = resolve(cwd);
      if (!isDirectory(folder)) throw new UserError(`The workspace folder ${folder} does not exist.`);
      const session = sessions.open({ agentId, agentName: agent.name, cwd: folder, additionalDirectories });
      return { sessionId: session.id };
    },
    'session.events': async ({ sessionId, afterSeq }) => ({ events: await sessions.events(sessionId, afterSeq) }),
    'session.prompt': async ({ sessionId, prompt }) => {
      // A tab the page kept across a host restart may not be read back yet (the restore runs
      // after the first answer): its message waits for it rather than being refused.
      await sessions.restore(sessionId);
      return sessions.prompt(sessionId, decodeContentBlocks(prompt));
    },
    'session.cancel': async ({ sessionId }) => {
      sessions.cancel(sessionId);
      return { ok: true };
    },
    'session.open': async ({ sessionId }) => {
      if (!(await sessions.restore(sessionId))) throw new UserError(`No session "${sessionId}".`);
      tabs.open(sessionId);
      changed();
      return { ok: true };
    },
    'session.close': async ({ sessionId }) => {
      sessions.close(sessionId);
      tabs.close(sessionId);
      changed();
      return { ok: true };
    },
    'tabs.set': async ({ open, active }) => {
      tabs.set(
        open.filter((id) => sessions.sessions.has(id) || isPlaceholder(id)),
        active,
      );
      changed();
      return { ok: true };
    },
    'permission.respond': async ({ sessionId, requestId, optionId }) => {
      sessions.respondPermission(sessionId, requestId, optionId);
      return { ok: true };
    },
    'elicitation.respond': async ({ sessionId, requestId, action, content }) => {
      sessions.respondElicitation(sessionId, requestId, action, content);
      return { ok: true };
    },
    'config.set': async ({ sessionId, configId, value }) => {
      await sessions.setConfig(sessionId, configId, value);
      return { ok: true };
    },
    'mode.set': async ({ sessionId, modeId }) => {
      await sessions.setMode(sessionId, modeId);
      return { ok: true };
    },
    'terminal.input': async ({ sessionId, terminalId, data }) => {
      sessions.terminalInput(sessionId, terminalId, data);
      return { ok: true };
    },
    'terminal.resize': async ({ sessionId, terminalId, cols, rows }) => {
      sessions.terminalResize(sessionId, terminalId, cols, rows);
      return { ok: true };
    },
    'terminal.cancel': async ({ sessionId, terminalId }) => {
      await sessions.cancelAgentWork(sessionId, { terminalId });
      return { ok: true };
    },
    'tool.cancel': async ({ sessionId, toolCallId }) => {
      await sessions.cancelAgentWork(sessionId, { toolCallId });
      return { ok: true };
    },
    'auth.start': async ({ sessionId, methodId, env }) => ({ ok: true, ...(await sessions.startAuth(sessionId, methodId, env)) }),
    'agent.restart': async ({ agentId }) => {
      requireAgent(agentId);
      await sessions.restartAgent(agentId);
      return { ok: true };
    },
    'agent.stderr': async ({ agentId }) => ({ lines: agents.stderr(agentId) }),
    'agent.logout': async ({ agentId }) => {
      requireAgent(agentId);
      return { ok: true, ...(await sessions.logout(agentId)) };
    },
  };
}
