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
import { isObject } from '../../src-shared/acp/read';
import type { RawObject, SessionEventBody, ToolCallFields } from '../../src-shared/session/events';

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
  const meta = isObject(update.meta) ? update.meta : {};
  const events: SessionEventBody[] = [];
  const ensure = (terminalId: string, cwd?: unknown) => {
    if (!terminalId || isClientTerminal(terminalId) || terminals.open.has(terminalId) || terminals.done.has(terminalId)) return;
    terminals.open.set(terminalId, { toolCallId });
    events.push({ kind: 'terminal.created', terminalId, command: commandOf(update), args: [], cwd: typeof cwd === 'string' ? cwd : null });
  };
  const info = isObject(meta.terminal_info) ? meta.terminal_info : null;
  if (info) ensure(String(info.terminal_id ?? ''), info.cwd);
  if (Array.isArray(update.content)) {
    for (const block of update.content)
      if (isObject(block) && block.type === 'terminal' && meta !== undefined && hasTerminalMeta(meta)) ensure(String(block.terminalId ?? ''));
  }
  for (const key of ['terminal_output_delta', 'terminal_output']) {
    const delta = meta[key];
    if (!isObject(delta) || typeof delta.data !== 'string') continue;
    const terminalId = String(delta.terminal_id ?? '');
    ensure(terminalId);
    if (terminals.open.has(terminalId) && delta.data) events.push({ kind: 'terminal.output', terminalId, data: delta.data });
  }
  const exit = isObject(meta.terminal_exit) ? meta.terminal_exit : null;
  if (exit) {
    const terminalId = String(exit.terminal_id ?? '');
    ensure(terminalId);
    if (terminals.open.delete(terminalId)) {
      terminals.done.add(terminalId);
      events.push({
        kind: 'terminal.exited',
        terminalId,
        exitCode: typeof exit.exit_code === 'number' ? exit.exit_code : null,
        signal: typeof exit.signal === 'string' ? exit.signal : null,
      });
    }
  }
  // The call ended without an exit report (cancelled, or an older adapter): stop the spinner.
  if (update.status === 'completed' || update.status === 'failed' || update.status === 'canceled' || update.status === 'cancelled') {
    for (const [terminalId, open] of terminals.open) {
      if (open.toolCallId !== toolCallId) continue;
      terminals.open.delete(terminalId);
      terminals.done.add(terminalId);
      const code = isObject(update.rawOutput) && typeof update.rawOutput.exit_code === 'number' ? update.rawOutput.exit_code : null;
      events.push({ kind: 'terminal.exited', terminalId, exitCode: code, signal: null });
    }
  }
  return events;
}

function hasTerminalMeta(meta: RawObject): boolean {
  return 'terminal_info' in meta || 'terminal_output_delta' in meta || 'terminal_output' in meta || 'terminal_exit' in meta;
}

/** What the terminal header shows: the command of the call's input, else its title. */
function commandOf(update: { rawInput?: unknown; title?: string | null }): string {
  const input = isObject(update.rawInput) ? update.rawInput : {};
  const command = input.command;
  if (Array.isArray(command)) {
    // Codex wraps commands as ["bash", "-lc", "<line>"]: show the line.
    const parts = command.map(String);
    return parts.length === 3 && /(^|\/)(ba|z)?sh$/.test(parts[0]) && parts[1].startsWith('-') ? parts[2] : parts.join(' ');
  }
  if (typeof command === 'string') return command;
  return typeof update.title === 'string' ? update.title : 'command';
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
  if (hasTerminalMeta(isObject(update.meta) ? update.meta : {}) || [...terminals.open.values()].some((t) => t.toolCallId === toolCallId))
    terminals.withContent.add(toolCallId);
  const input = isObject(update.rawInput) ? update.rawInput : null;
  if (input && (Array.isArray(input.command) || typeof input.command === 'string')) terminals.commands.set(toolCallId, commandOf(update));
  if (!ENDED.has(String(update.status)) || terminals.withContent.has(toolCallId)) return unchanged;
  const raw = isObject(update.rawOutput) ? update.rawOutput : null;
  const output = raw ? outputOf(raw) : null;
  const command = raw && (Array.isArray(raw.command) || typeof raw.command === 'string') ? commandOf({ rawInput: raw }) : terminals.commands.get(toolCallId);
  if (output === null || command === undefined) return unchanged;
  terminals.withContent.add(toolCallId);
  const terminalId = `${toolCallId}:output`;
  terminals.done.add(terminalId);
  const events: SessionEventBody[] = [{ kind: 'terminal.created', terminalId, command, args: [], cwd: typeof raw?.cwd === 'string' ? raw.cwd : null }];
  if (output) events.push({ kind: 'terminal.output', terminalId, data: output });
  events.push({ kind: 'terminal.exited', terminalId, exitCode: typeof raw?.exit_code === 'number' ? raw.exit_code : null, signal: null });
  return { update: { ...update, content: [{ type: 'terminal', terminalId }] }, events };
}

/** The command's output as a terminal would have shown it: stdout and stderr interleaved when known. */
function outputOf(raw: RawObject): string | null {
  for (const key of ['aggregated_output', 'formatted_output']) if (typeof raw[key] === 'string') return raw[key];
  if (typeof raw.stdout !== 'string') return null;
  return raw.stdout + (typeof raw.stderr === 'string' ? raw.stderr : '');
}
