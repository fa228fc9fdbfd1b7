import { spawn } from 'node:child_process';

/** Why checkpoints are off when the system has no `git`. */
export const GIT_MISSING =
  'Checkpoints are off: the system has no `git` command (install git and restart the app to have a checkpoint before every turn). Nothing else is affected.';

export class GitError extends Error {
  constructor(
    message: string,
    readonly code: number | null,
  ) {
    super(message);
  }
}

/** Where git runs: the shadow repository's folder and the person's folder as its work tree. */
export interface GitPlace {
  gitDir: string;
  workTree?: string;
  /** The environment git starts from (tests pass a PATH without git). */
  env?: NodeJS.ProcessEnv;
}

/**
 * The environment of every git run: the shadow repository and its own index, nothing from the
 * person's configuration (hooks, fsmonitor, signing, templates) and nothing inherited that
 * would point git at the person's repository (`GIT_DIR`, `GIT_INDEX_FILE` set by a terminal).
 */
function gitEnv(place: GitPlace): NodeJS.ProcessEnv {
  const base = place.env ?? process.env;
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(base)) if (!key.startsWith('GIT_')) env[key] = value;
  return {
    ...env,
    GIT_DIR: place.gitDir,
    ...(place.workTree ? { GIT_WORK_TREE: place.workTree } : {}),
    GIT_INDEX_FILE: `${place.gitDir}/index`,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: 'ACP Desktop',
    GIT_AUTHOR_EMAIL: 'checkpoints@acp-desktop.invalid',
    GIT_COMMITTER_NAME: 'ACP Desktop',
    GIT_COMMITTER_EMAIL: 'checkpoints@acp-desktop.invalid',
    LC_ALL: 'C',
  };
}

/** Runs git in a shadow repository; resolves with stdout, rejects with a GitError naming stderr. */
export function runGit(place: GitPlace, args: string[], input?: string | Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { env: gitEnv(place), cwd: place.workTree, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' ? new GitError(GIT_MISSING, null) : new GitError(`git ${args[0]}: ${error.message}`, null)),
    );
    child.once('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out));
      else reject(new GitError(`git ${args[0]} failed (${code}): ${Buffer.concat(err).toString('utf8').trim().slice(0, 500)}`, code));
    });
    // A pipe closed early (git exited on bad input) is reported by the exit code above.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input ?? '');
  });
}

/** The system git's version, or null when there is none (checked once per service). */
export async function gitVersion(env?: NodeJS.ProcessEnv): Promise<string | null> {
  try {
    const out = await runGit({ gitDir: '/nonexistent-acp-checkpoints', env }, ['--version']);
    return out.toString('utf8').trim();
  } catch {
    // ENOENT (no git) or a broken git: either way checkpoints are off, and the caller says so.
    return null;
  }
}
