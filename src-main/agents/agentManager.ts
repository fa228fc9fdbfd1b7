import { statSync } from 'node:fs';
import type { AgentSummary } from '../../src-shared/ipc/appState';
import type { AgentCapabilities, AgentInfo, AuthMethodInfo, JsonObject } from '../../src-shared/session/controls';
import type { ProtocolSetting } from '../../src-shared/settings';
import { describeExit } from '../acp/describeExit';
import type { ClientSide } from '../acp/clientSide';
import type { AgentLink } from '../acp/agentLink';
import { InMemorySecretStore, readAgentEnv, type SecretStore } from '../store/secretStore';
import type { AgentLogs } from './agentLog';
import type { ExitInfo, LaunchSpec, StartAgent } from '../process/agentProcess';
import { toAuthMethods } from '../acp/authMethods';
import { EXCERPT_LINES, stderrExcerpt } from './stderrExcerpt';
import { decodeAgentInfo, decodeCapabilitiesOrNull, decodeInitializeMeta } from '../acp/decode/controls';
import { obj } from '../../src-shared/acp/read';
import { claudeRootEnv } from '../quirks/claudeCodeAcp';
import { geminiShellEnv } from '../quirks/geminiCli';
import { logUnlessMissing } from '../log/mainLog';
import { TrafficRing } from '../acp/trafficRing';
import type { WireRecorder } from '../acp/wireLog';

/** An agent the app knows how to describe and, when `launch` is set, to start. */
export interface AgentDefinition {
  id: string;
  name: string;
  source: AgentSummary['source'];
  description?: string;
  version?: string;
  icon?: string;
  launch?: LaunchSpec;
}

type RuntimeStatus = AgentSummary['process'];

interface Runtime {
  connection: AgentLink;
  status: RuntimeStatus;
  ready: Promise<AgentLink>;
  error?: string;
}

export interface AgentManagerOptions {
  /** Every agent definition (custom agents from settings, installed registry agents, …). */
  definitions: () => AgentDefinition[];
  /** Client-side handlers for a connection to the given agent. */
  clientSide: (agentId: string) => ClientSide;
  initializeTimeoutMs: number;
  /** Where `env_var` sign-in values are kept; they are added to the agent's environment. */
  secrets?: SecretStore;
  onChange: () => void;
  /** An agent died on its own: the last of its stderr (a bounded excerpt) and its full log, if kept. */
  onExit: (agentId: string, info: ExitInfo, stderrTail: string[], stderrLog?: string) => void;
  /** Where each agent's stderr is kept in full (`<data>/logs/agents`); none in some unit tests. */
  logs?: AgentLogs;
  /** How agents are started (default: a process; unit tests run the fixture agent in-process). */
  startAgent?: StartAgent;
  /** Which ACP protocol versions to speak with an agent (its `protocol` setting; default `v1`). */
  protocol?: (agentId: string) => ProtocolSetting;
  /** Makes the connection to a started agent (default: `AgentConnection` over the SDK; tests: a stub link). */
  connect?: ConnectionFactory;
  /** Records an agent's traffic to a file from its start (the protocol inspector's setting). */
  recorder?: (agentId: string) => WireRecorder | null;
}

/** What the manager needs to make one agent's connection (`AgentConnection`'s arguments). */
export interface ConnectionRequest {
  launch: LaunchSpec;
  clientSide: ClientSide;
  startAgent?: StartAgent;
  protocol: ProtocolSetting;
  agent: { name: string; id: string };
  /** Where the agent's stderr goes besides the in-memory tail (its own rotated log). */
  stderr?: (text: string) => void;
  /** The protocol inspector's ring buffer of this agent's JSON-RPC lines. */
  traffic?: TrafficRing;
  /** Records the traffic of each process started (the inspector's setting). */
  recorder?: () => WireRecorder | null;
}
export type ConnectionFactory = (request: ConnectionRequest) => AgentLink;

// The ACP SDK (its zod schemas were most of the host's start-up CPU) is loaded when the first
// agent starts, not with the core: listing agents needs none of it (issue 23, cold start;
// guarded by core/startModules.test.ts).
let connectOverSdk: ConnectionFactory | undefined;
let loadingSdk: Promise<unknown> | undefined;
function loadSdkConnection(): Promise<unknown> {
  loadingSdk ??= import('../acp/agentConnection').then(({ AgentConnection }) => {
    connectOverSdk = ({ launch, clientSide, startAgent, protocol, agent, stderr, traffic, recorder }) =>
      new AgentConnection(launch, clientSide, stderr, startAgent, { protocol, agent, traffic, ...(recorder ? { recorder } : {}) });
  });
  return loadingSdk;
}

/**
 * Starts agent processes on demand (one per agent, shared by all its sessions), runs
 * `initialize`, and remembers what the agent said about itself for the UI.
 */
export class AgentManager {
  private runtimes = new Map<string, Runtime>();
  private lastErrors = new Map<string, string>();
  private lastInit = new Map<
    string,
    { agentInfo: AgentInfo | null; capabilities: AgentCapabilities | null; protocolVersion: number; authMethods: AuthMethodInfo[]; meta: JsonObject | null }
  >();
  private stderrCache = new Map<string, string[]>();
  readonly secrets: SecretStore;
  // ---- The protocol inspector (issue 27): traffic per agent, kept across restarts.
  private rings = new Map<string, TrafficRing>();
  private recordings = new Map<string, string>();

  /** The agent's ring buffer of recent JSON-RPC lines. */
  traffic(agentId: string): TrafficRing {
    let ring = this.rings.get(agentId);
    if (!ring) this.rings.set(agentId, (ring = new TrafficRing()));
    return ring;
  }

  /** The wire log file the agent's running process writes, if it records. */
  recordingFile(agentId: string): string | null {
    return this.runtimes.has(agentId) ? (this.recordings.get(agentId) ?? null) : null;
  }
  // ---- end of the protocol inspector's part.

  constructor(private readonly options: AgentManagerOptions) {
    this.secrets = options.secrets ?? new InMemorySecretStore();
  }

  find(agentId: string): AgentDefinition | undefined {
    return this.options.definitions().find((agent) => agent.id === agentId);
  }

  summaries(): AgentSummary[] {
    return this.options.definitions().map((agent) => {
      const runtime = this.runtimes.get(agent.id);
      const init = this.lastInit.get(agent.id);
      return {
        id: agent.id,
        name: agent.name,
        description: agent.description,
        version: agent.version,
        source: agent.source,
        icon: agent.icon,
        runnable: Boolean(agent.launch),
        process: runtime?.status ?? (this.lastErrors.has(agent.id) ? 'error' : 'stopped'),
        error: runtime?.error ?? this.lastErrors.get(agent.id),
        agentInfo: init?.agentInfo,
        capabilities: init?.capabilities,
        protocolVersion: init?.protocolVersion,
        authMethods: init?.authMethods,
        meta: init?.meta,
        signIn: {
          storedEnv: Object.keys(readAgentEnv(this.secrets, agent.id)),
          secretsPersistent: this.secrets.persistent,
          secretsDescription: this.secrets.description,
          canLogout: init?.capabilities?.auth.logout ?? false,
        },
      };
    });
  }

  connection(agentId: string): AgentLink | undefined {
    const runtime = this.runtimes.get(agentId);
    return runtime?.status === 'ready' ? runtime.connection : undefined;
  }

  /**
   * The running, initialized connection to an agent, starting it if needed. A process started
   * now runs in `cwd`, the workspace of the session that needs it (as Zed starts agents in the
   * project): some agents use their own working directory, not the session's `cwd` (Gemini CLI
   * runs its shell commands there). Later sessions of other folders share the process.
   */
  ensureRunning(agentId: string, cwd?: string): Promise<AgentLink> {
    const existing = this.runtimes.get(agentId);
    if (existing && existing.status !== 'error') return existing.ready;
    const agent = this.find(agentId);
    if (!agent) return Promise.reject(new Error(`Unknown agent "${agentId}".`));
    if (!agent.launch) return Promise.reject(new Error(`${agent.name} is not installed.`));
    const connect = this.options.connect ?? connectOverSdk;
    if (!connect) return loadSdkConnection().then(() => this.ensureRunning(agentId, cwd));
    const launch = { ...this.launchSpec(agentId)!, ...(cwd && isDirectory(cwd) ? { cwd } : {}) };
    const logs = this.options.logs;
    const connection = connect({
      launch,
      clientSide: this.options.clientSide(agentId),
      startAgent: this.options.startAgent,
      protocol: this.options.protocol?.(agentId) ?? 'v1',
      agent: { name: agent.name, id: agentId },
      stderr: logs && ((text) => logs.write(agentId, text)),
      traffic: this.traffic(agentId),
      ...(this.options.recorder
        ? {
            recorder: () => {
              const recorder = this.options.recorder!(agentId);
              if (recorder) this.recordings.set(agentId, recorder.file);
              else this.recordings.delete(agentId);
              return recorder;
            },
          }
        : {}),
    });
    logs?.note(agentId, `started: ${[launch.command, ...launch.args].join(' ')} (pid ${connection.pid ?? 'none'})`);
    const runtime: Runtime = { connection, status: 'starting', ready: Promise.resolve(connection) };
    runtime.ready = (async () => {
      try {
        const init = await connection.initialize(this.options.initializeTimeoutMs);
        const answer = obj(init);
        this.lastInit.set(agentId, {
          agentInfo: decodeAgentInfo(answer.agentInfo),
          capabilities: decodeCapabilitiesOrNull(answer.agentCapabilities),
          protocolVersion: init.protocolVersion,
          authMethods: toAuthMethods(answer.authMethods),
          meta: decodeInitializeMeta(answer._meta),
        });
        runtime.status = 'ready';
        this.lastErrors.delete(agentId);
        this.options.onChange();
        return connection;
      } catch (error) {
        const tail = stderrExcerpt(connection.stderrTail(5), 5, 1024).join('\n');
        const message = `${agent.name} failed to start: ${(error as Error).message}${tail ? `\n${tail}` : ''}`;
        runtime.status = 'error';
        runtime.error = message;
        this.lastErrors.set(agentId, message);
        // Stopped on purpose (timeout, protocol mismatch): its sessions get this error, not "exited".
        if (this.runtimes.get(agentId) === runtime) this.runtimes.delete(agentId);
        void connection.stop();
        this.options.onChange();
        throw new Error(message);
      }
    })();
    this.runtimes.set(agentId, runtime);
    this.options.onChange();
    void connection.exited.then((info) => {
      logs?.note(agentId, describeExit(info));
      this.stderrCache.set(agentId, connection.stderrTail());
      if (this.runtimes.get(agentId) !== runtime) return;
      this.runtimes.delete(agentId);
      this.options.onChange();
      // Before `initialize` answered, the sessions waiting on it get the start error (with stderr).
      if (runtime.status !== 'ready') return;
      this.lastErrors.set(agentId, describeExit(info));
      this.options.onExit(agentId, info, stderrExcerpt(connection.stderrTail(EXCERPT_LINES)), logs?.file(agentId));
    });
    return runtime.ready;
  }

  /** How the agent is started now: its command, args and env plus stored sign-in values. */
  launchSpec(agentId: string): LaunchSpec | undefined {
    const launch = this.find(agentId)?.launch;
    if (!launch) return undefined;
    const env = { ...launch.env, ...readAgentEnv(this.secrets, agentId) };
    const quirks = { ...claudeRootEnv(agentId, { ...launch, env }, process.getuid?.() === 0), ...geminiShellEnv(agentId, { env }) };
    return { ...launch, args: [...launch.args], env: { ...quirks, ...env } };
  }

  /** What the agent said at its last `initialize` (capabilities survive the process). */
  capabilities(agentId: string): AgentCapabilities | null {
    return this.lastInit.get(agentId)?.capabilities ?? null;
  }

  stderr(agentId: string): string[] {
    return this.runtimes.get(agentId)?.connection.stderrTail() ?? this.stderrCache.get(agentId) ?? [];
  }

  authMethods(agentId: string): AuthMethodInfo[] {
    return this.lastInit.get(agentId)?.authMethods ?? [];
  }

  /** Stops an agent; its sessions see `agent.exited` only if it dies on its own. */
  async stop(agentId: string): Promise<void> {
    const runtime = this.runtimes.get(agentId);
    if (!runtime) return;
    this.runtimes.delete(agentId);
    await runtime.connection.stop();
    this.options.onChange();
  }

  async restart(agentId: string): Promise<AgentLink> {
    await this.stop(agentId);
    this.lastErrors.delete(agentId);
    return this.ensureRunning(agentId);
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.runtimes.keys()].map((id) => this.stop(id)));
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch (error) {
    logUnlessMissing(`Checking whether ${path} is a folder`, error);
    return false;
  }
}
