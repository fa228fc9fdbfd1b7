/**
 * Codex: command output in the same xterm view as the app's terminals, from `_meta.terminal_*`
 * updates or, in 0.16, from the completed call's `rawOutput` (its only copy of the output).
 *
 * Codex's ACP adapter (`@zed-industries/codex-acp`) runs commands itself and shows them
 * as a terminal content block for a terminal the client never created, naming it in
 * `_meta.terminal_info: { terminal_id, cwd }`. The output streams in tool-call updates as
 * `_meta.terminal_output_delta: { terminal_id, data }` (older versions: `terminal_output`), and
 * the end as `_meta.terminal_exit: { terminal_id, exit_code, signal }`. The app turns these into
 * its own terminal events, so the card shows the output live in the same xterm view as a
 * terminal the app runs, with the exit code. The adapter sends them when the client declares
 * `clientCapabilities._meta.terminal_output`.
 *
 * Codex 0.16 (`unified_exec`) sends none of that for most commands: the call has no content and
 * the output is only in the completed update's `rawOutput` (`aggregated_output`,
 * `formatted_output`, `stdout`/`stderr`, `exit_code`), which the card would show only under
 * "Raw output". Such a call gets a terminal of its own, filled at once with that output and its
 * exit code, and a terminal content block on the card (see `rawOutputTerminal`).
 */
import { z } from 'zod';
import type { SessionEventBody, ToolCallFields } from '../../src-shared/session/events';

/**
 * The parts of Codex's extension and output the app reads, as Codex sends them. Each part is
 * read only when it has this shape; a field of another type reads as absent.
 */
const terminalId = z.union([z.string(), z.number()]).transform(String);
const optional = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);
const terminalInfo = z.object({ terminal_id: terminalId, cwd: optional(z.string()) });
const outputChunk = z.object({ terminal_id: terminalId, data: z.string() });
const terminalExit = z.object({ terminal_id: terminalId, exit_code: optional(z.number()), signal: optional(z.string()) });
/** A command as Codex writes it in `rawInput`/`rawOutput`: a string or an argv. */
const command = z.union([z.string(), z.array(z.unknown()).transform((parts) => parts.map(String))]);
const commandInput = z.object({ command: optional(command) });
const rawOutputSchema = z.object({
  command: optional(command),
  cwd: optional(z.string()),
  exit_code: optional(z.number()),
  aggregated_output: optional(z.string()),
  formatted_output: optional(z.string()),
  stdout: optional(z.string()),
  stderr: optional(z.string()),
});
type RawOutput = z.output<typeof rawOutputSchema>;

const TERMINAL_META_KEYS = ['terminal_info', 'terminal_output_delta', 'terminal_output', 'terminal_exit'];

/** A tool call's `_meta` read for the terminal extension (parts of another shape are absent). */
function terminalMeta(meta: unknown) {
  const part = <T extends z.ZodType>(key: string, schema: T): z.output<T> | undefined =>
    typeof meta === 'object' && meta !== null && key in meta ? schema.safeParse(Reflect.get(meta, key)).data : undefined;
  return {
    /** Whether it names any part of the extension (whatever its shape). */
    present: typeof meta === 'object' && meta !== null && TERMINAL_META_KEYS.some((key) => key in meta),
    info: part('terminal_info', terminalInfo),
    outputs: [part('terminal_output_delta', outputChunk), part('terminal_output', outputChunk)],
    exit: part('terminal_exit', terminalExit),
  };
}

/** Added to `clientCapabilities._meta` at `initialize`. */
export const TERMINAL_OUTPUT_CAPABILITY = { terminal_output: true } as const;

/** Per session: agent-side terminals seen so far, and which tool call shows each. */
export interface AgentTerminals {
  open: Map<string, { toolCallId: string }>;
  done: Set<string>;
  /** Tool calls that already show content (a terminal or anything else): left as they are. */
  withContent: Set<string>;
  /** The command of each tool call whose input named one, for calls completed without content. */
  commands: Map<string, string>;
}

export function newAgentTerminals(): AgentTerminals {
  return { open: new Map(), done: new Set(), withContent: new Set(), commands: new Map() };
}

/**
 * The app events an update implies for agent-side terminals. `isClientTerminal` tells apart a
 * terminal this app created (its own events already carry its output).
 */
export function agentTerminalEvents(
  toolCallId: string,
  update: ToolCallFields,
  terminals: AgentTerminals,
  isClientTerminal: (terminalId: string) => boolean,
): SessionEventBody[] {
  const meta = terminalMeta(update.meta);
  const events: SessionEventBody[] = [];
  const ensure = (terminalId: string, cwd?: string) => {
    if (!terminalId || isClientTerminal(terminalId) || terminals.open.has(terminalId) || terminals.done.has(terminalId)) return;
    terminals.open.set(terminalId, { toolCallId });
    events.push({ kind: 'terminal.created', terminalId, command: commandOf(update), args: [], cwd: cwd ?? null });
  };
  if (meta.info) ensure(meta.info.terminal_id, meta.info.cwd);
  if (Array.isArray(update.content) && meta.present) {
    for (const block of update.content) if (block.type === 'terminal') ensure(String(block.terminalId ?? ''));
  }
  for (const delta of meta.outputs) {
    if (!delta) continue;
    ensure(delta.terminal_id);
    if (terminals.open.has(delta.terminal_id) && delta.data) events.push({ kind: 'terminal.output', terminalId: delta.terminal_id, data: delta.data });
  }
  if (meta.exit) {
    const terminalId = meta.exit.terminal_id;
    ensure(terminalId);
    if (terminals.open.delete(terminalId)) {
      terminals.done.add(terminalId);
      events.push({ kind: 'terminal.exited', terminalId, exitCode: meta.exit.exit_code ?? null, signal: meta.exit.signal ?? null });
    }
  }
  // The call ended without an exit report (cancelled, or an older adapter): stop the spinner.
  if (update.status === 'completed' || update.status === 'failed' || update.status === 'canceled' || update.status === 'cancelled') {
    for (const [terminalId, open] of terminals.open) {
      if (open.toolCallId !== toolCallId) continue;
      terminals.open.delete(terminalId);
      terminals.done.add(terminalId);
      const code = rawOutputSchema.safeParse(update.rawOutput).data?.exit_code ?? null;
      events.push({ kind: 'terminal.exited', terminalId, exitCode: code, signal: null });
    }
  }
  return events;
}

/** What the terminal header shows: the command of the call's input, else its title. */
function commandOf(update: { rawInput?: unknown; title?: string | null }): string {
  const command = commandInput.safeParse(update.rawInput).data?.command;
  return command === undefined ? (typeof update.title === 'string' ? update.title : 'command') : commandLine(command);
}

function commandLine(command: string | string[]): string {
  if (typeof command === 'string') return command;
  // Codex wraps commands as ["bash", "-lc", "<line>"]: show the line.
  return command.length === 3 && /(^|\/)(ba|z)?sh$/.test(command[0]) && command[1].startsWith('-') ? command[2] : command.join(' ');
}

const ENDED = new Set(['completed', 'failed', 'canceled', 'cancelled']);

/**
 * A command call that ends with its output only in `rawOutput` (Codex 0.16): the call's fields, with a
 * terminal content block added, and the events of a terminal holding that output. Anything
 * else: the update as it came and no events. Call after `agentTerminalEvents`.
 */
export function rawOutputTerminal(
  toolCallId: string,
  update: ToolCallFields,
  terminals: AgentTerminals,
): { update: ToolCallFields; events: SessionEventBody[] } {
  const unchanged = { update, events: [] };
  if (!toolCallId) return unchanged;
  if (Array.isArray(update.content) && update.content.length) terminals.withContent.add(toolCallId);
  if (terminalMeta(update.meta).present || [...terminals.open.values()].some((t) => t.toolCallId === toolCallId)) terminals.withContent.add(toolCallId);
  if (commandInput.safeParse(update.rawInput).data?.command !== undefined) terminals.commands.set(toolCallId, commandOf(update));
  if (!ENDED.has(String(update.status)) || terminals.withContent.has(toolCallId)) return unchanged;
  const raw = rawOutputSchema.safeParse(update.rawOutput).data;
  const output = raw ? outputOf(raw) : null;
  const command = raw?.command !== undefined ? commandLine(raw.command) : terminals.commands.get(toolCallId);
  if (output === null || command === undefined) return unchanged;
  terminals.withContent.add(toolCallId);
  const terminalId = `${toolCallId}:output`;
  terminals.done.add(terminalId);
  const events: SessionEventBody[] = [{ kind: 'terminal.created', terminalId, command, args: [], cwd: raw?.cwd ?? null }];
  if (output) events.push({ kind: 'terminal.output', terminalId, data: output });
  events.push({ kind: 'terminal.exited', terminalId, exitCode: raw?.exit_code ?? null, signal: null });
  return { update: { ...update, content: [{ type: 'terminal', terminalId }] }, events };
}

/** The command's output as a terminal would have shown it: stdout and stderr interleaved when known. */
function outputOf(raw: RawOutput): string | null {
  const whole = raw.aggregated_output ?? raw.formatted_output;
  if (whole !== undefined) return whole;
  if (raw.stdout === undefined) return null;
  return raw.stdout + (raw.stderr ?? '');
}
