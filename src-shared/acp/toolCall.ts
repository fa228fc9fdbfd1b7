import { KNOWN_TOOL_KINDS, KNOWN_TOOL_STATUSES, KNOWN_V2_TOOL_STATUSES, APP_TOOL_STATUSES, isKnown } from './known';
import { isObject } from './read';

export const isKnownToolKind = (kind: string) => isKnown(KNOWN_TOOL_KINDS, kind);
export const isKnownToolStatus = (status: string) =>
  isKnown(KNOWN_TOOL_STATUSES, status) || isKnown(KNOWN_V2_TOOL_STATUSES, status) || isKnown(APP_TOOL_STATUSES, status);

/** The command line of an `execute` call, from its raw input (`command` + `args`, or an argv list). */
export function toolCommand(rawInput: unknown): string | null {
  if (!isObject(rawInput)) return null;
  if (typeof rawInput.command === 'string') return [rawInput.command, ...(Array.isArray(rawInput.args) ? rawInput.args.map(String) : [])].join(' ');
  if (Array.isArray(rawInput.command)) return rawInput.command.map(String).join(' ');
  return null;
}

/** Output an agent kept itself for a terminal this client never ran (`_meta.terminal_output`, Claude Code's convention). */
export function metaTerminalOutput(meta: unknown): string | null {
  return isObject(meta) && typeof meta.terminal_output === 'string' ? meta.terminal_output : null;
}
