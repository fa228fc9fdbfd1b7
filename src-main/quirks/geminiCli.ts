/**
 * Gemini CLI: the `****` thought marker is removed, its key sign-in asks for `GEMINI_API_KEY`,
 * and a file missing in the workspace reads as empty (its ACP layer cannot see a not-found error).
 *
 * Gemini CLI (`@google/gemini-cli --experimental-acp` / `--acp`) sends each thought chunk
 * as `**<subject>**\n<text>`; with an empty subject every chunk begins with `"****\n"`, which
 * shows as raw asterisks (or a rule) in the thought. The marker is removed from thought chunks.
 */
import { isAbsolute, resolve } from 'node:path';
import type { ContentBlock, ToolCallFields } from '../../src-shared/session/events';

export function isGemini(agentId: string): boolean {
  return /gemini/i.test(agentId);
}

const EMPTY_SUBJECT = /^\*\*\*\*(\r?\n|$)/;

/** A thought chunk's content without the marker. */
export function stripThoughtMarker(content: ContentBlock): ContentBlock {
  if (content.type !== 'text' || !EMPTY_SUBJECT.test(content.text)) return content;
  return { ...content, text: content.text.replace(EMPTY_SUBJECT, '') };
}

/**
 * Gemini CLI 0.27 (the catalog's `--experimental-acp` build) names the file of a diff relative
 * to the workspace (`{"type":"diff","path":"hello.txt",…}`) although ACP paths are absolute,
 * while its `fs/write_text_file` and `locations` use the absolute path: the Review panel
 * listed the one file twice. A relative diff path is resolved against the session's folder,
 * which is what Gemini means by it.
 */
export function absoluteDiffPaths(update: ToolCallFields, cwd: string | undefined): ToolCallFields {
  if (!cwd || !isAbsolute(cwd) || !update.content) return update;
  let changed = false;
  const content = update.content.map((block) => {
    if (block.type !== 'diff' || 'changes' in block || !block.path || isAbsolute(block.path)) return block;
    changed = true;
    return { ...block, path: resolve(cwd, block.path) };
  });
  return changed ? { ...update, content } : update;
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
 * Gemini CLI runs shell commands in its own pty by default, and then its ACP layer drops their
 * output (the shell tool's display is an array of styled lines, which `toToolCallContent` does
 * not keep): every client shows an empty card. Over ACP nobody can type into that pty anyway,
 * so the app starts Gemini with `GEMINI_PTY_INFO=child_process` (Gemini's own switch to run
 * commands without a pty, as with `tools.shell.enableInteractiveShell: false`); the output then
 * arrives as text. A value the person set is kept.
 */
export function geminiShellEnv(agentId: string, launch: { env: Record<string, string> }, hostEnv: NodeJS.ProcessEnv = process.env): Record<string, string> {
  if (!isGemini(agentId) || 'GEMINI_PTY_INFO' in launch.env || hostEnv.GEMINI_PTY_INFO !== undefined) return {};
  return { GEMINI_PTY_INFO: 'child_process' };
}
