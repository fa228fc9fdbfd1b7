import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

/** Tests only: git runs with no global or system configuration, so the machine's settings never leak in. */
export function hermeticGit(): void {
  process.env.GIT_CONFIG_NOSYSTEM = '1';
  process.env.GIT_CONFIG_GLOBAL = '/dev/null';
}

/** Runs git synchronously in a folder and answers its stdout (tests only). */
export function sh(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A fresh repository on `main` with one commit of `files`. */
export function makeRepo(files: Record<string, string> = { 'shared.txt': 'line\n' }): string {
  const repo = mkdtempSync(join(tmpdir(), 'acp-repo-'));
  sh(repo, 'init', '-q', '-b', 'main');
  sh(repo, 'config', 'user.name', 'Test Person');
  sh(repo, 'config', 'user.email', 'test@example.com');
  sh(repo, 'config', 'commit.gpgsign', 'false');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(repo, name), text);
  sh(repo, 'add', '-A');
  sh(repo, 'commit', '-q', '-m', 'initial');
  return repo;
}

/** Everything a merge could change in a working tree: HEAD, the branch, the index's entries and every file's bytes. */
export function snapshot(tree: string): { head: string; branch: string; index: string; files: Record<string, string> } {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (dir === tree && name === '.git') continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files[relative(tree, path)] = readFileSync(path, 'utf8');
    }
  };
  walk(tree);
  return {
    head: sh(tree, 'rev-parse', 'HEAD').trim(),
    branch: sh(tree, 'symbolic-ref', '--quiet', 'HEAD').trim(),
    // ls-files reads the index without refreshing (and so rewriting) it.
    index: sh(tree, 'ls-files', '--stage'),
    files,
  };
}
