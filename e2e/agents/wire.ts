/**
 * Reads a wire tap log (`wireTap.mjs`) and picks out the messages that show an agent's
 * quirks, as the agent sent them: thoughts, diffs, terminals, Markdown in tool output, sign-in
 * methods, requests outside the protocol, and errors the client answered.
 */
import { existsSync, readFileSync } from 'node:fs';

type Json = Record<string, unknown>;
interface Line {
  dir: string;
  msg: Json;
}

const STANDARD = new Set([
  'session/request_permission',
  'fs/read_text_file',
  'fs/write_text_file',
  'terminal/create',
  'terminal/output',
  'terminal/wait_for_exit',
  'terminal/kill',
  'terminal/release',
  'session/elicitation',
  'session/update',
]);

export function readWire(path: string): Line[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Line)
    .filter((line) => line.msg);
}

function clip(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text.length <= 1500 ? value : `${text.slice(0, 1500)}…`;
}

export function observations(lines: Line[]): { what: string; message: unknown }[] {
  const found: { what: string; message: unknown }[] = [];
  const once = new Set<string>();
  const add = (what: string, message: unknown, key = what) => {
    if (once.has(key)) return;
    once.add(key);
    found.push({ what, message: clip(message) });
  };
  for (const { dir, msg } of lines) {
    const params = (msg.params ?? {}) as Json;
    const update = (params.update ?? {}) as Json;
    if (dir === 'agent→client') {
      const result = msg.result as Json | undefined;
      if (Array.isArray(result?.authMethods) && result.authMethods.length) add('sign-in methods at initialize', result.authMethods);
      if (msg.method === 'terminal/create')
        add(`terminal/create (${Array.isArray(params.args) && params.args.length ? 'with args' : 'command only, no args'})`, msg);
      if (typeof msg.method === 'string' && msg.id !== undefined && !STANDARD.has(msg.method))
        add(`request outside the protocol: ${msg.method}`, msg, msg.method);
      if (update.sessionUpdate === 'agent_thought_chunk') {
        const text = String((update.content as Json | undefined)?.text ?? '');
        add(`first thought chunk${text.startsWith('****') ? ' starts with "****"' : ''}`, msg, 'thought');
      }
      const content = Array.isArray(update.content) ? (update.content as Json[]) : [];
      for (const block of content) {
        if (block.type === 'diff') {
          const old =
            block.oldText === undefined
              ? 'absent'
              : block.oldText === null
                ? 'null'
                : block.oldText === ''
                  ? '""'
                  : JSON.stringify(String(block.oldText).slice(0, 12));
          add(`diff with oldText ${old}, newText ${JSON.stringify(String(block.newText).slice(0, 12))}`, msg, `diff-${old}`);
        }
        if (block.type === 'terminal') add('terminal content block', msg);
        const text = ((block.content as Json | undefined)?.text ?? '') as string;
        if (typeof text === 'string' && text.startsWith('```')) add('tool output as a Markdown fence', msg);
      }
      const meta = (update._meta ?? {}) as Json;
      if ('terminal_output_delta' in meta || 'terminal_output' in meta) add('terminal output in _meta', msg);
      if ('terminal_exit' in meta) add('terminal exit in _meta', msg);
    } else if (dir === 'client→agent' && msg.error) add('an error the client answered', msg, `error-${JSON.stringify(msg.error).slice(0, 60)}`);
  }
  return found;
}
