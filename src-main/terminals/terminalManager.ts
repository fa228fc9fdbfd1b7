import { spawn as spawnChild } from 'node:child_process';
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import { OutputBuffer } from './outputBuffer';
import { planTerminalSpawn } from './shellCommand';
import { logged, logWarn } from '../log/mainLog';

type NodePty = typeof import('node-pty');

let ptyModule: NodePty | null | undefined;
/** node-pty is native: if it cannot load (ABI mismatch), terminals fall back to plain pipes. */
function loadPty(): NodePty | null {
  if (ptyModule !== undefined) return ptyModule;
  try {
    ptyModule = createRequire(import.meta.url)('node-pty') as NodePty;
  } catch (error) {
    logWarn('Loading node-pty (terminals fall back to plain pipes)', error);
    ptyModule = null;
  }
  return ptyModule;
}

export interface TerminalSpec {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  outputByteLimit?: number | null;
  /** A pty the person types into (terminal sign-in); otherwise output only. */
  interactive?: boolean;
  cols?: number;
  rows?: number;
}

export interface TerminalExit {
  exitCode: number | null;
  signal: string | null;
}

interface Handle {
  write(data: string): void;
  resize(cols: number, rows: number): void;
  kill(): void;
}

export class Terminal {
  readonly id = `term_${randomUUID()}`;
  readonly output: OutputBuffer;
  /** The sign-in terminal the person types into (not one an agent created). */
  readonly interactive: boolean;
  exit: TerminalExit | null = null;
  readonly exited: Promise<TerminalExit>;
  private handle: Handle;

  constructor(spec: TerminalSpec, onData: (data: string) => void) {
    this.output = new OutputBuffer(spec.outputByteLimit ?? null);
    this.interactive = spec.interactive === true;
    let resolveExit!: (exit: TerminalExit) => void;
    this.exited = new Promise((resolve) => (resolveExit = resolve));
    const finish = (exit: TerminalExit) => {
      if (this.exit) return;
      this.exit = exit;
      resolveExit(exit);
    };
    const data = (chunk: string) => {
      this.output.push(chunk);
      onData(chunk);
    };
    const env = { ...process.env, TERM: 'xterm-256color', ...spec.env } as Record<string, string>;
    const pty = loadPty();
    const plan = planTerminalSpawn(spec.command, spec.args, process.platform);
    if (pty) {
      try {
        // node-pty takes a verbatim Windows command line as one string.
        const child = pty.spawn(plan.file, plan.windowsVerbatimArguments ? plan.args.join(' ') : plan.args, {
          name: 'xterm-256color',
          cwd: spec.cwd,
          env,
          cols: spec.cols ?? 120,
          rows: spec.rows ?? 30,
        });
        child.onData(data);
        child.onExit(({ exitCode, signal }) => finish({ exitCode: signal ? null : exitCode, signal: signal ? signalName(signal) : null }));
        this.handle = {
          write: (text) => child.write(text),
          resize: (cols, rows) => child.resize(cols, rows),
          kill: () => child.kill(),
        };
        return;
      } catch (error) {
        data(`${spec.command}: ${(error as Error).message}\r\n`);
        finish({ exitCode: 127, signal: null });
        this.handle = { write() {}, resize() {}, kill() {} };
        return;
      }
    }
    const child = spawnChild(plan.file, plan.args, {
      cwd: spec.cwd,
      env,
      windowsVerbatimArguments: plan.windowsVerbatimArguments,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdout.setEncoding('utf8').on('data', data);
    child.stderr.setEncoding('utf8').on('data', data);
    child.on('error', (error) => {
      data(`${spec.command}: ${error.message}\n`);
      finish({ exitCode: 127, signal: null });
    });
    child.on('exit', (code, signal) => finish({ exitCode: code, signal }));
    // A command that exits before reading its input: its exit is what the agent sees.
    child.stdin.on('error', logged(`Writing to the terminal command ${spec.command}`, 'debug'));
    this.handle = {
      write: (text) => child.stdin.write(text),
      resize: () => {},
      kill: () => child.kill('SIGTERM'),
    };
  }

  write(data: string): void {
    if (!this.exit) this.handle.write(data);
  }

  resize(cols: number, rows: number): void {
    if (!this.exit) this.handle.resize(cols, rows);
  }

  kill(): void {
    if (!this.exit) this.handle.kill();
  }
}

const SIGNALS: Record<number, string> = { 1: 'SIGHUP', 2: 'SIGINT', 9: 'SIGKILL', 15: 'SIGTERM' };
function signalName(signal: number): string {
  return SIGNALS[signal] ?? `signal ${signal}`;
}
