import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PassThrough, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk/unstable';
import type { Json } from '../../src-shared/json';
import { type AgentHost, type ExitInfo, type LaunchSpec, LineRing, spawnAgent, type StartAgent, STDERR_LINES } from '../process/agentProcess';
import { webByteStreams } from '../process/webStreams';

/**
 * The agents of unit tests, in this process: one in-memory agent host (`InMemoryAgent`: stdio
 * as in-memory pipes, a pid, stderr lines, an exit) under two kinds of agent, both reached
 * through the app's real `AgentConnection` (raw tap and SDK included).
 *
 * - A script agent (the scripted fixture, `e2e/fixtures/fixture-agent.mjs`): the same script a
 *   process would run, inside this process. A process start plus loading the SDK again cost
 *   about half a second per agent under load; in-process it is a few milliseconds, which is
 *   most of the engine unit tests' time.
 * - A `FakeAgent`: an agent a test writes in a few lines on the SDK's agent app, which records
 *   what the app sent it and can misbehave on purpose.
 *
 * `inProcessAgents(...fakes)` is the core's `startAgent` for both: a launch spec whose command
 * is `fake:<name>` starts that fake, one that runs a `.mjs` script with this Node binary runs
 * the script here, and anything else (custom commands, missing binaries) is a real process:
 * what only a process can show (a process tree killed on quit, a command that cannot be
 * spawned) stays with `spawnAgent`.
 */
export function inProcessAgents(...fakes: FakeAgent[]): StartAgent {
  return (spec, onStderr) => {
    const fake = spec.command.startsWith('fake:') ? fakes.find((candidate) => candidate.name === spec.command.slice(5)) : undefined;
    if (fake) return fake.start();
    const script = spec.command === process.execPath ? spec.args[0] : undefined;
    if (script && script.endsWith('.mjs')) return new ScriptAgent(spec, onStderr);
    return spawnAgent(spec, onStderr);
  };
}

/** Thrown by the script's `process.exit()` to unwind it; never escapes to the test. */
class AgentExit extends Error {}

let nextPid = 1_000_000;

/** A compiled script: its body as an async function of its `process` and its imported modules (by specifier). */
type ScriptFunction = (process: unknown, modules: Map<string, unknown>) => Promise<void>;
const compiled = new Map<string, Promise<{ run: ScriptFunction; specifiers: string[] }>>();

/**
 * An agent in this process, as the app sees a process: its stdio as in-memory pipes, a pid,
 * stderr lines and an exit. Script agents (`ScriptAgent`) and `FakeAgent`s both run on it.
 */
export class InMemoryAgent implements AgentHost {
  readonly stderr = new LineRing(STDERR_LINES);
  readonly exited: Promise<ExitInfo>;
  readonly pid = nextPid++;
  private exitInfo: ExitInfo | null = null;
  private resolveExit!: (info: ExitInfo) => void;
  /** Client → agent (the agent's stdin) and agent → client (its stdout). */
  readonly toAgent = new PassThrough();
  private toClient = new PassThrough();
  /** The agent's stdout: what it writes reaches the app until it exits. */
  readonly agentOut: Writable;

  constructor() {
    this.exited = new Promise((resolve) => (this.resolveExit = resolve));
    const toClient = this.toClient;
    const isDead = () => this.hasExited;
    this.agentOut = new Writable({
      write(chunk, _encoding, callback) {
        if (!isDead()) toClient.write(chunk);
        callback();
      },
    });
  }

  get hasExited(): boolean {
    return this.exitInfo !== null;
  }

  /** Writes one JSON-RPC message to the app, exactly as given. */
  writeLine(message: unknown): void {
    if (!this.hasExited) this.toClient.write(`${JSON.stringify(message)}\n`);
  }

  webStreams(): { input: ReadableStream<Uint8Array>; output: WritableStream<Uint8Array> } {
    const toAgent = this.toAgent;
    const isDead = () => this.hasExited;
    const writable = new Writable({
      write(chunk, _encoding, callback) {
        if (!isDead()) toAgent.write(chunk);
        callback();
      },
    });
    return webByteStreams(this.toClient, writable);
  }

  async stop(): Promise<ExitInfo> {
    this.end({ code: null, signal: 'SIGTERM' });
    return this.exited;
  }

  protected end(info: ExitInfo): void {
    if (this.exitInfo) return;
    this.exitInfo = info;
    this.toClient.end();
    this.toAgent.end();
    this.resolveExit(info);
  }
}

/**
 * A script agent in this process. The script sees a `process` of its own: `argv`, `env` (the
 * launch env over ours), `stdin`, `stdout`, `stderr` and `exit` are the agent's; everything else
 * is this process's. `exit()` ends the agent (its pipes close, `exited` resolves) and throws to
 * stop the code that called it, as a real exit would.
 */
class ScriptAgent extends InMemoryAgent {
  constructor(
    private readonly spec: LaunchSpec,
    private readonly onStderr?: (text: string) => void,
  ) {
    super();
    const script = resolve(spec.cwd ?? '.', spec.args[0]);
    void load(script)
      .then(async ({ run, specifiers }) => {
        const modules = new Map<string, unknown>();
        // Relative imports are the script's own modules, next to it.
        for (const specifier of specifiers)
          modules.set(specifier, await import(specifier.startsWith('.') ? pathToFileURL(resolve(dirname(script), specifier)).href : specifier));
        await run(this.fakeProcess(script), modules);
      })
      .catch((error: unknown) => {
        if (error instanceof AgentExit) return;
        this.writeStderr(`${(error as Error)?.stack ?? String(error)}\n`);
        this.end({ code: 1, signal: null });
      });
  }

  private writeStderr(text: string): void {
    this.stderr.push(text);
    this.onStderr?.(text);
  }

  private fakeProcess(script: string): unknown {
    const own: Record<string | symbol, unknown> = {
      argv: [process.execPath, script, ...this.spec.args.slice(1)],
      env: { ...process.env, ...this.spec.env },
      pid: this.pid,
      stdin: this.toAgent,
      stdout: this.agentOut,
      stderr: { write: (text: string | Uint8Array) => (this.writeStderr(String(text)), true) },
      exit: (code?: number) => {
        this.end({ code: code ?? 0, signal: null });
        throw new AgentExit(`exit ${code ?? 0}`);
      },
    };
    return new Proxy(process, {
      get(target, key) {
        if (key in own) return own[key];
        const value = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }
}

/**
 * Compiles the script once: its `import` lines become lookups in the modules loaded
 * with `import()`, and the body runs as an async function of `(process, modules)`.
 */
function load(script: string): Promise<{ run: ScriptFunction; specifiers: string[] }> {
  let entry = compiled.get(script);
  if (!entry) {
    entry = Promise.resolve().then(() => {
      const specifiers: string[] = [];
      const source = readFileSync(script, 'utf8')
        .replace(/^#!.*/, '')
        .replace(/^import\s+(\*\s+as\s+\w+|\{[^}]*\}|\w+)\s+from\s+['"]([^'"]+)['"];?/gm, (_line, what: string, specifier: string) => {
          specifiers.push(specifier);
          const table = `__modules.get(${JSON.stringify(specifier)})`;
          if (what.startsWith('*')) return `const ${what.replace(/^\*\s+as\s+/, '')} = ${table};`;
          if (what.startsWith('{')) return `const ${what.replace(/\s+as\s+/g, ': ')} = ${table};`;
          return `const ${what} = ${table}.default;`;
        });
      if (/^\s*import\s/m.test(source)) throw new Error(`${script}: an import this runner cannot rewrite`);
      const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => ScriptFunction;
      return { run: new AsyncFunction('process', '__modules', source), specifiers };
    });
    compiled.set(script, entry);
  }
  return entry;
}

/** The requests a `FakeAgent` answers, with their params as the SDK's schema types them. */
type FakeMethod = 'initialize' | 'session/new' | 'session/load' | 'session/resume' | 'session/fork' | 'session/close' | 'session/prompt';
type FakeCalls = { [M in FakeMethod]: acp.AgentRequestParamsByMethod[M][] };

export interface FakePromptContext {
  sessionId: string;
  prompt: acp.ContentBlock[];
  /** The agent's view of its client: typed requests and notifications to the app. */
  client: acp.AgentContext;
  /** Sends a `session/update` for this session. */
  update(update: acp.SessionUpdate): Promise<void>;
  /** Writes a JSON-RPC message line, exactly as given (for what the typed API would refuse). */
  raw(message: Json): void;
}

/** What a fake agent does; everything has a plain default. */
export interface FakeAgentScript {
  /** `agentCapabilities` at initialize (default: none beyond the required). */
  capabilities?: acp.AgentCapabilities;
  /** The id `session/new` (and `session/fork`) answers with (default `fake_<n>`). */
  newSessionId?: () => string;
  /** A turn; the default says "ok" and ends it. */
  onPrompt?: (context: FakePromptContext) => Promise<acp.PromptResponse | void>;
}

/**
 * An agent a test writes in a few lines, built on the SDK's agent app and run on an
 * `InMemoryAgent`. It records every request it receives (`callsOf`), so a test can check what the
 * app sent, and lets a test write raw lines to the app (`raw`), so it can misbehave on purpose.
 * Start it with `inProcessAgents(fake)` and a custom agent whose command is `fake:<name>`.
 */
export class FakeAgent {
  private calls: FakeCalls = {
    initialize: [],
    'session/new': [],
    'session/load': [],
    'session/resume': [],
    'session/fork': [],
    'session/close': [],
    'session/prompt': [],
  };
  private hosts: InMemoryAgent[] = [];
  private counter = 0;

  constructor(
    readonly name: string,
    private readonly script: FakeAgentScript = {},
  ) {}

  /** Requests received with this method, in order. */
  callsOf<M extends FakeMethod>(method: M): FakeCalls[M] {
    return this.calls[method];
  }

  /** Writes a raw JSON-RPC message to the app from the running agent. */
  raw(message: Json): void {
    const host = this.hosts.at(-1);
    if (!host || host.hasExited) throw new Error(`${this.name} is not running`);
    host.writeLine(message);
  }

  start(): AgentHost {
    const host = new InMemoryAgent();
    this.hosts.push(host);
    const newId = () => this.script.newSessionId?.() ?? `fake_${++this.counter}`;
    const app = acp
      .agent({ name: this.name })
      .onRequest('initialize', ({ params }) => {
        this.calls['initialize'].push(params);
        return {
          protocolVersion: acp.PROTOCOL_VERSION,
          agentCapabilities: { ...this.script.capabilities },
          agentInfo: { name: this.name, version: '1.0.0' },
          authMethods: [],
        };
      })
      .onRequest('session/new', ({ params }) => {
        this.calls['session/new'].push(params);
        return { sessionId: newId() };
      })
      .onRequest('session/load', ({ params }) => void this.calls['session/load'].push(params))
      .onRequest('session/resume', ({ params }) => (this.calls['session/resume'].push(params), {}))
      .onRequest('session/fork', ({ params }) => {
        this.calls['session/fork'].push(params);
        return { sessionId: newId() };
      })
      .onRequest('session/close', ({ params }) => void this.calls['session/close'].push(params))
      .onRequest('session/prompt', async ({ params, client }) => {
        this.calls['session/prompt'].push(params);
        const { sessionId } = params;
        const context: FakePromptContext = {
          sessionId,
          prompt: params.prompt,
          client,
          update: (update) => client.notify('session/update', { sessionId, update }),
          raw: (message) => host.writeLine(message),
        };
        const onPrompt =
          this.script.onPrompt ?? (async ({ update }) => void (await update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'ok' } })));
        return (await onPrompt(context)) ?? { stopReason: 'end_turn' };
      });
    const { input, output } = webByteStreams(host.toAgent, host.agentOut);
    app.connect(acp.ndJsonStream(output, input));
    return host;
  }
}
