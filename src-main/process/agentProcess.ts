import { spawn, type ChildProcess } from 'node:child_process';
import { planSpawn } from './spawnCommand';
import { webByteStreams } from './webStreams';
import { logDebug, logged } from '../log/mainLog';
import type { RemoteEndpoint } from '../../src-shared/remote';

export interface LaunchSpec {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** A remote agent (docs/REMOTE.md): reached over the network; `command` is unused. */
  remote?: RemoteEndpoint;
}

export interface ExitInfo {
  code: number | null;
  signal: string | null;
  /** Set when the process never started (ENOENT, EACCES, …). */
  spawnError?: string;
  /** A remote agent: why its connection ended (network, server, refused), one clear sentence. */
  lost?: string;
}

/** How many stderr lines of an agent are kept (the agent log in the info dialog). */
export const STDERR_LINES = 500;

/** Of a longer line the ring keeps this many characters at each end (the whole line is in the agent's log). */
export const LINE_END_CHARS = 4096;

/**
 * Keeps the last N lines of a stream of text. A line longer than twice `LINE_END_CHARS`, even
 * one that never ends, is kept as its start and its end with the count of what was left out,
 * so memory stays bounded (500 lines of 8 KiB) whatever an agent prints.
 */
export class LineRing {
  private lines: string[] = [];
  /** The unfinished line: its first characters, its last ones, and how many between were dropped. */
  private head = '';
  private rest = '';
  private dropped = 0;
  constructor(private readonly max: number) {}

  push(text: string): void {
    const parts = text.split('\n');
    const last = parts.pop() ?? '';
    for (const part of parts) {
      this.grow(part.endsWith('\r') ? part.slice(0, -1) : part);
      this.keep(this.partial().replace(/\r$/, ''));
      this.head = this.rest = '';
      this.dropped = 0;
    }
    this.grow(last);
  }

  /** A whole line (the app's own notes: a spawn error, stdout that is not ACP). */
  add(line: string): void {
    this.keep(
      line.length > 2 * LINE_END_CHARS ? shortened(line.slice(0, LINE_END_CHARS), line.length - 2 * LINE_END_CHARS, line.slice(-LINE_END_CHARS)) : line,
    );
  }

  private keep(line: string): void {
    this.lines.push(line);
    if (this.lines.length > this.max) this.lines.splice(0, this.lines.length - this.max);
  }

  tail(count = this.max): string[] {
    const partial = this.partial();
    const all = partial ? [...this.lines, partial] : this.lines;
    return all.slice(-count);
  }

  private grow(piece: string): void {
    if (this.head.length < LINE_END_CHARS) {
      const taken = piece.slice(0, LINE_END_CHARS - this.head.length);
      this.head += taken;
      piece = piece.slice(taken.length);
    }
    this.rest += piece;
    if (this.rest.length > LINE_END_CHARS) {
      this.dropped += this.rest.length - LINE_END_CHARS;
      this.rest = this.rest.slice(-LINE_END_CHARS);
    }
  }

  private partial(): string {
    return this.dropped > 0 ? shortened(this.head, this.dropped, this.rest) : this.head + this.rest;
  }
}

/** A long line as its start, how much was left out, and its end. */
export function shortened(start: string, dropped: number, end: string): string {
  return `${start}… [${dropped} characters not kept] …${end}`;
}

/**
 * The far end of an agent connection: a process (`AgentProcess`), or an agent running inside
 * this process (`src-main/testing/`), which unit tests use to skip a process start per agent.
 */
export interface AgentHost {
  readonly stderr: LineRing;
  readonly exited: Promise<ExitInfo>;
  readonly pid: number | undefined;
  readonly hasExited: boolean;
  /** Byte streams to and from the agent, as the SDK's `ndJsonStream` wants them. */
  webStreams(): { input: ReadableStream<Uint8Array>; output: WritableStream<Uint8Array> };
  /** A remote agent's JSON-RPC messages (no stdio to frame): the SDK's message `Stream`. */
  messages?(): { readable: ReadableStream<unknown>; writable: WritableStream<unknown> };
  stop(graceMs?: number): Promise<ExitInfo>;
}

/** How an agent is started (an `AgentProcess` unless a test says otherwise). */
export type StartAgent = (spec: LaunchSpec, onStderr?: (text: string) => void) => AgentHost;

export const spawnAgent: StartAgent = (spec, onStderr) => new AgentProcess(spec, onStderr);

/**
 * One agent subprocess with stdio pipes. Many sessions share it. Its stderr is kept as a
 * rolling log for the UI and for the message shown when it crashes.
 */
export class AgentProcess implements AgentHost {
  readonly stderr = new LineRing(STDERR_LINES);
  readonly exited: Promise<ExitInfo>;
  private child: ChildProcess;
  private exitInfo: ExitInfo | null = null;

  constructor(spec: LaunchSpec, onStderr?: (text: string) => void) {
    const plan = planSpawn(spec.command, spec.args, process.platform);
    this.child = spawn(plan.file, plan.args, {
      cwd: spec.cwd,
      env: { ...process.env, ...spec.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
      windowsVerbatimArguments: plan.windowsVerbatimArguments,
      // Its own process group, so stopping it takes its children (npx → node → …) along.
      detached: process.platform !== 'win32',
    });
    this.exited = new Promise((resolve) => {
      this.child.once('error', (error) => {
        const info: ExitInfo = { code: null, signal: null, spawnError: `${spec.command}: ${error.message}` };
        this.stderr.add(info.spawnError!);
        this.exitInfo ??= info;
        resolve(this.exitInfo);
      });
      this.child.once('exit', (code, signal) => {
        this.exitInfo ??= { code, signal };
        resolve(this.exitInfo);
      });
    });
    this.child.stderr?.setEncoding('utf8');
    this.child.stderr?.on('data', (chunk: string) => {
      this.stderr.push(chunk);
      onStderr?.(chunk);
    });
    // An agent that dies mid-write must not take the app down with EPIPE.
    this.child.stdin?.on('error', logged(`Writing to agent process ${this.child.pid} (it exited; the exit is reported)`, 'debug'));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get hasExited(): boolean {
    return this.exitInfo !== null;
  }

  /** Web streams over the process's stdio, as the SDK's `ndJsonStream` wants them. */
  webStreams(): { input: ReadableStream<Uint8Array>; output: WritableStream<Uint8Array> } {
    return webByteStreams(this.child.stdout!, this.child.stdin!);
  }

  /** Stops the process and everything it started; escalates to SIGKILL after `graceMs`. */
  async stop(graceMs = 2000): Promise<ExitInfo> {
    if (this.exitInfo) return this.exitInfo;
    killTree(this.child, 'SIGTERM');
    const timer = setTimeout(() => killTree(this.child, 'SIGKILL'), graceMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }
}

export function killTree(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    if (process.platform === 'win32') {
      spawn('taskkill', ['/pid', String(child.pid), '/T', '/F'], { windowsHide: true }).on('error', logged(`Running taskkill for ${child.pid}`, 'warn'));
    } else {
      process.kill(-child.pid, signal);
    }
  } catch {
    try {
      child.kill(signal);
    } catch (error) {
      // Expected when the process has already exited (ESRCH); kept in the log for the odd other case.
      logDebug(`Killing agent process ${child.pid}`, error);
    }
  }
}
