/**
 * Gemini CLI: the `****` thought marker is removed, its key sign-in asks for `GEMINI_API_KEY`, a
 * file missing in the workspace reads as empty (its ACP layer cannot see a not-found error), and
 * it runs commands without a pty so their output reaches the card.
 *
 * Gemini CLI (`@google/gemini-cli --experimental-acp` / `--acp`) sends each thought chunk
 * as `**<subject>**\n<text>`; with an empty subject every chunk begins with `"****\n"`, which
 * shows as raw asterisks (or a rule) in the thought. The marker is removed from thought chunks.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RawObject } from '../../../src-shared/session/events';

export function isGemini(agentId: string): boolean {
  return /gemini/i.test(agentId);
}

const EMPTY_SUBJECT = /^\*\*\*\*(\r?\n|$)/;

export function stripThoughtMarker(update: RawObject): RawObject {
  if (update.sessionUpdate !== 'agent_thought_chunk') return update;
  const content = update.content as RawObject | undefined;
  if (content?.type !== 'text' || typeof content.text !== 'string' || !EMPTY_SUBJECT.test(content.text)) return update;
  return { ...update, content: { ...content, text: content.text.replace(EMPTY_SUBJECT, '') } };
}

/**
 * Gemini CLI's "Use Gemini API key" method has no ACP type (so it would be a bare `agent`
 * method whose `authenticate` fails without a key) and carries `_meta["api-key"]`. The key is
 * the environment variable Gemini documents, `GEMINI_API_KEY`: the app asks for it like an
 * `env_var` method (stored as a secret, the agent restarted with it), then calls `authenticate`.
 */
export const API_KEY_VARIABLES: Record<string, string> = { google: 'GEMINI_API_KEY', gemini: 'GEMINI_API_KEY' };

/**
 * Gemini CLI (0.61) reads a file through `fs/read_text_file` before writing it, to tell a new
 * file from an edit. Its ACP layer rejects with the JSON-RPC error object itself, not an
 * `Error`, so its check (`err instanceof Error ? err.message : String(err)` must contain
 * "ENOENT" or "Resource not found") sees "[object Object]": whatever a client answers for a
 * missing file, the write fails ("Error checking existing file") and the file is never created.
 * For Gemini, a file missing inside the workspace reads as empty text (as a new, empty buffer
 * does in Zed); its read tool checks that a file exists on its own before reading, so the model
 * is not told that a missing file is empty. Outside the workspace Gemini uses its own file system.
 */
export function missingFileReadsEmpty(agentId: string, error: unknown, insideWorkspace: boolean): boolean {
  return isGemini(agentId) && insideWorkspace && (error as NodeJS.ErrnoException)?.code === 'ENOENT';
}

/**
 * Gemini CLI (0.61) sends no shell output over ACP: with its interactive shell (node-pty, the
 * default) the shell tool's display is an array of styled lines, and its ACP layer keeps only a
 * string or a file diff, so the card stays empty (`"content":[]`, no `rawOutput`). With
 * `tools.shell.enableInteractiveShell: false` it runs commands without a pty and sends the output
 * as text. ACP gives the person no way to type into that pty anyway, so the app starts Gemini with
 * that value as a *system default* (`GEMINI_CLI_SYSTEM_DEFAULTS_PATH`, Gemini's lowest-precedence
 * settings layer): the person's own settings still win. Not done when the variable is set already
 * or the machine has a system-defaults file of its own (`systemDefaultsFile`), which would be hidden.
 */
export function geminiShellDefaultsEnv(
  agentId: string,
  launch: { command: string; args: string[]; env: Record<string, string> },
  dataDir: string | undefined,
  hostEnv: NodeJS.ProcessEnv = process.env,
  systemDefaultsFile: string = defaultSystemDefaultsFile(),
): Record<string, string> {
  const named = isGemini(agentId) || [launch.command, ...launch.args].some((part) => /@google\/gemini-cli|(^|[\\/])gemini(\.cmd|\.exe)?$/i.test(part));
  if (!named || !dataDir) return {};
  if ('GEMINI_CLI_SYSTEM_DEFAULTS_PATH' in launch.env || hostEnv.GEMINI_CLI_SYSTEM_DEFAULTS_PATH !== undefined || existsSync(systemDefaultsFile)) return {};
  const file = join(dataDir, 'agent-quirks', 'gemini-system-defaults.json');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ tools: { shell: { enableInteractiveShell: false } } }, null, 2)}\n`);
  return { GEMINI_CLI_SYSTEM_DEFAULTS_PATH: file };
}

/** Where Gemini looks for system defaults when the variable is not set (its `getSystemDefaultsPath`). */
function defaultSystemDefaultsFile(): string {
  const settings = process.env.GEMINI_CLI_SYSTEM_SETTINGS_PATH;
  if (settings) return join(dirname(settings), 'system-defaults.json');
  if (process.platform === 'darwin') return '/Library/Application Support/GeminiCli/system-defaults.json';
  if (process.platform === 'win32') return 'C:\\ProgramData\\gemini-cli\\system-defaults.json';
  return '/etc/gemini-cli/system-defaults.json';
}
