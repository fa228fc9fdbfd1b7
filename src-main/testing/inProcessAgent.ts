import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PassThrough, Writable } from 'node:stream';
import { type AgentHost, type ExitInfo, type LaunchSpec, LineRing, spawnAgent, type StartAgent, STDERR_LINES } from '../process/agentProcess';
import { webByteStreams } from '../process/webStreams';

/**
 * Runs a script agent (the scripted fixture agent, `e2e/fixtures/fixture-agent.mjs`) inside this
 * process instead of spawning Node for it: the same script, the same newline-delimited JSON-RPC
 * through the real `AgentConnection` (raw tap and SDK included), over in-memory pipes. A process
 * start plus loading the SDK again cost about half a second per agent under load; in-process
 * it is a few milliseconds, which is most of the engine unit tests' time.
 *
 * The script sees a `process` of its own: `argv`, `env` (the launch env over ours), `stdin`,
 * `stdout`, `stderr` and `exit` are the agent's; everything else is this process's. `exit()`
 * ends the agent (its pipes close, `exited` resolves) and throws to stop the code that called
 * it, as a real exit would. What only a real process can show (a process tree killed on quit,
 * a command that cannot be spawned) stays with `spawnAgent`: see `startAgentFor`.
 */
export function startInProcess(spec: LaunchSpec, onStderr?: (text: string) => void): AgentHost {
  return new InProcessAgent(spec, onStderr);
}

/**
 * `startInProcess` for launch specs that run a `.mjs` script with this Node binary, a real
 * process for everything else (custom commands, missing binaries).
 */
export const startAgentFor: StartAgent = (spec, onStderr) => {
  const script = spec.command === process.execPath ? spec.args[0] : undefined;
  if (script && script.endsWith('.mjs')) return startInProcess(spec, onStderr);
  return spawnAgent(spec, onStderr);
};

/** Thrown by the script's `process.exit()` to unwind it; never escapes to the test. */
class AgentExit extends Error {}

let nextPid = 1_000_000;

type ScriptFunction = (process: unknown, modules: Record<string, unknown>) => Promise<void>;
const compiled = new Map<string, Promise<{ run: ScriptFunction; specifiers: string[] }>>();

/**
 * An agent in this process, as the app sees a process: its stdio as in-memory pipes, a pid,
 * stderr lines and an exit. The scripted fixture (`InProcessAgent`) and the SDK-built fakes
 * (`fakeAgent.ts`) both run on it.
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

class InProcessAgent extends InMemoryAgent {
  constructor(
    private readonly spec: LaunchSpec,
    private readonly onStderr?: (text: string) => void,
  ) {
    super();
    const script = resolve(spec.cwd ?? '.', spec.args[0]);
    void load(script)
      .then(async ({ run, specifiers }) => {
        const modules: Record<string, unknown> = {};
        // Relative imports are the script's own modules, next to it.
        for (const specifier of specifiers)
          modules[specifier] = await import(specifier.startsWith('.') ? pathToFileURL(resolve(dirname(script), specifier)).href : specifier);
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
 * Compiles the script once: its `import` lines become lookups in a table of modules loaded
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
          const table = `__modules[${JSON.stringify(specifier)}]`;
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
