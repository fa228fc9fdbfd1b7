import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hermeticGit, makeRepo, sh, snapshot } from '../testing/gitRepo';
import { setGitBinary } from './git';
import { parseGitVersion, resetGitSupport } from './gitSupport';
import { mergeIntoBase } from './mergeIntoBase';
import { WorktreeEngine } from './worktreeEngine';

beforeAll(hermeticGit);
afterEach(() => {
  setGitBinary('git');
  resetGitSupport();
});

const ROOT = resolve(import.meta.dirname, '../..');
const CHILD = join(ROOT, 'src-main/testing/worktreeChild.ts');

function setup(files?: Record<string, string>) {
  const repo = makeRepo(files);
  const data = mkdtempSync(join(tmpdir(), 'acp-wt-data-'));
  const folder = join(data, 'worktrees');
  const journalDir = join(folder, '.journal');
  const engine = new WorktreeEngine({ folder: () => folder, copyFiles: () => ['.env'], journalDir });
  return { repo, folder, journalDir, engine };
}

const branches = (repo: string) => sh(repo, 'for-each-ref', '--format=%(refname:short)', 'refs/heads').split('\n').filter(Boolean).sort();
const worktreeCount = (repo: string) =>
  sh(repo, 'worktree', 'list', '--porcelain')
    .split('\n')
    .filter((l) => l.startsWith('worktree ')).length;

/** Runs the creation in a child process; `killAt` kills it with SIGKILL there, or `journal` kills it from outside as soon as the journal entry exists. */
function createInChild(s: ReturnType<typeof setup>, branch: string, killAt: string): Promise<{ signal: NodeJS.Signals | null; code: number | null }> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, s.journalDir, s.folder, s.repo, branch, 'main', killAt === 'journal' ? 'never' : killAt], {
      stdio: 'ignore',
      cwd: ROOT,
    });
    if (killAt === 'journal') {
      const poll = setInterval(() => {
        if (existsSync(s.journalDir) && readdirSync(s.journalDir).some((n) => n.endsWith('.json'))) {
          clearInterval(poll);
          child.kill('SIGKILL');
        }
      }, 1);
      child.on('exit', () => clearInterval(poll));
    }
    child.on('exit', (code, signal) => resolvePromise({ code, signal }));
  });
}

describe('WorktreeEngine', () => {
  it('reads git versions, and disables itself for a missing or old git with the reason', async () => {
    expect(parseGitVersion('git version 2.39.5')).toEqual([2, 39, 5]);
    expect(parseGitVersion('git version 2.37.1 (Apple Git-137.1)')).toEqual([2, 37, 1]);
    expect(parseGitVersion('git version 2.45.1.windows.1')).toEqual([2, 45, 1]);
    const { repo, engine } = setup();

    setGitBinary(join(tmpdir(), 'no-such-git-binary'));
    resetGitSupport();
    const missing = await engine.probe(repo);
    expect(missing).toMatchObject({ available: false, gitVersion: null });
    expect(missing.reason).toMatch(/git is not installed.*need git 2\.38 or newer/);

    const old = join(mkdtempSync(join(tmpdir(), 'acp-oldgit-')), 'git');
    writeFileSync(old, '#!/bin/sh\necho "git version 2.30.2"\n');
    chmodSync(old, 0o755);
    setGitBinary(old);
    resetGitSupport();
    expect(await engine.probe(repo)).toMatchObject({
      available: false,
      gitVersion: '2.30.2',
      reason: 'git 2.30.2 is too old: worktree sessions need git 2.38 or newer.',
    });
    await expect(engine.create(repo, 'x/y', 'main')).rejects.toThrow(/too old/);
  });

  it('offers the option only inside a repository with a commit', async () => {
    const { engine } = setup();
    const plain = mkdtempSync(join(tmpdir(), 'acp-plain-'));
    expect(await engine.probe(plain)).toMatchObject({ available: false, reason: 'The workspace folder is not inside a git repository.' });
    sh(plain, 'init', '-q', '-b', 'main');
    expect((await engine.probe(plain)).reason).toMatch(/no commits yet/);
  });

  it('refuses a taken or invalid branch name and a missing base, leaving nothing behind', async () => {
    const s = setup();
    sh(s.repo, 'branch', 'taken');
    await expect(s.engine.create(s.repo, 'taken', 'main')).rejects.toThrow(/already exists/);
    await expect(s.engine.create(s.repo, 'bad..name', 'main')).rejects.toThrow(/not a valid branch name/);
    await expect(s.engine.create(s.repo, 'ok', 'nope')).rejects.toThrow(/no local branch "nope"/);
    await expect(s.engine.create(s.repo, 'ok', 'main^{tree}')).rejects.toThrow(/"main\^\{tree\}" is not a valid branch name/);
    await expect(s.engine.create(s.repo, '-ok', 'main')).rejects.toThrow(/not a valid branch name/);
    expect(branches(s.repo)).toEqual(['main', 'taken']);
    expect(worktreeCount(s.repo)).toBe(1);
  });

  for (const killAt of ['journaled', 'added', 'copied', 'journal']) {
    it(`a creation killed with SIGKILL (${killAt === 'journal' ? 'from outside, as soon as it started' : `after the step "${killAt}"`}) blocks nothing: the next try succeeds`, async () => {
      const s = setup();
      writeFileSync(join(s.repo, '.env'), 'A=1\n');
      const run = await createInChild(s, 'agent/retry', killAt);
      expect(run.signal).toBe('SIGKILL');
      // The next creation recovers first, with the same branch name and folder.
      const again = await s.engine.create(s.repo, 'agent/retry', 'main');
      again.done();
      expect(again.info.path).toBe(join(s.folder, `${s.repo.split('/').pop()}-agent-retry`));
      expect(readFileSync(join(again.info.path, '.env'), 'utf8')).toBe('A=1\n');
      expect(branches(s.repo)).toEqual(['agent/retry', 'main']);
      expect(worktreeCount(s.repo)).toBe(2);
      expect(readdirSync(s.journalDir)).toEqual([]);
    });
  }

  it('recovery at start undoes a killed creation: no folder, no branch, no worktree entry', async () => {
    const s = setup();
    expect((await createInChild(s, 'agent/half', 'added')).signal).toBe('SIGKILL');
    expect(branches(s.repo)).toEqual(['agent/half', 'main']);
    await s.engine.recover();
    expect(branches(s.repo)).toEqual(['main']);
    expect(worktreeCount(s.repo)).toBe(1);
    expect(readdirSync(s.folder).filter((n) => n !== '.journal')).toEqual([]);
  });

  it('recovery keeps a worktree whose session was recorded just before the kill (its entry is only ended)', async () => {
    const s = setup();
    const made = await s.engine.create(s.repo, 'agent/claimed', 'main');
    // Never `done()`: killed right after the session was recorded with the worktree.
    const restarted = new WorktreeEngine({
      folder: () => s.folder,
      copyFiles: () => [],
      journalDir: s.journalDir,
      isClaimed: (path) => path === made.info.path,
    });
    await restarted.recover();
    expect(existsSync(made.info.path)).toBe(true);
    expect(branches(s.repo)).toEqual(['agent/claimed', 'main']);
    expect(readdirSync(s.journalDir)).toEqual([]);
  });

  it('recovery removes a worktree git left locked (as a kill inside `git worktree add` leaves it)', async () => {
    const s = setup();
    const path = join(s.folder, 'locked');
    const base = sh(s.repo, 'rev-parse', 'main').trim();
    s.engine.journal.begin({ op: 'create', repoRoot: s.repo, path, branch: 'agent/locked', baseCommit: base });
    sh(s.repo, 'worktree', 'add', '-q', '-b', 'agent/locked', path, 'main');
    sh(s.repo, 'worktree', 'lock', '--reason', 'initializing', path);
    await s.engine.recover();
    expect(existsSync(path)).toBe(false);
    expect(branches(s.repo)).toEqual(['main']);
    expect(worktreeCount(s.repo)).toBe(1);
  });

  it('a removal cut short (journaled, folder deleted, branch and git metadata still there) is completed at the next start', async () => {
    const s = setup();
    const made = await s.engine.create(s.repo, 'agent/doomed', 'main');
    made.done();
    writeFileSync(join(made.info.path, 'work.txt'), 'confirmed as lost\n');
    // What a host killed inside remove() leaves: the journal entry, the folder half gone.
    s.engine.journal.begin({ op: 'remove', repoRoot: s.repo, path: made.info.path, branch: 'agent/doomed' });
    rmSync(made.info.path, { recursive: true, force: true });
    expect(worktreeCount(s.repo)).toBe(2);
    const restarted = new WorktreeEngine({ folder: () => s.folder, copyFiles: () => [], journalDir: s.journalDir });
    await restarted.recover();
    expect(branches(s.repo)).toEqual(['main']);
    expect(worktreeCount(s.repo)).toBe(1);
    expect(readdirSync(s.journalDir)).toEqual([]);
    // Replaying it again changes nothing and fails nothing (every step is idempotent).
    restarted.journal.begin({ op: 'remove', repoRoot: s.repo, path: made.info.path, branch: 'agent/doomed' });
    await restarted.recover();
    expect(readdirSync(s.journalDir)).toEqual([]);
  });

  it('recovery keeps a branch the person moved on after a crash: only an untouched new branch is deleted', async () => {
    const s = setup();
    const made = await s.engine.create(s.repo, 'agent/moved', 'main');
    // Never `done()`: as if the host died before the session was recorded, but the branch got a commit since.
    writeFileSync(join(made.info.path, 'x.txt'), 'x\n');
    sh(made.info.path, 'add', 'x.txt');
    sh(made.info.path, 'commit', '-q', '-m', 'work');
    const restarted = new WorktreeEngine({ folder: () => s.folder, copyFiles: () => [], journalDir: s.journalDir });
    await restarted.recover();
    expect(branches(s.repo)).toEqual(['agent/moved', 'main']);
  });

  it('merges with a merge commit when the base moved without conflict; the base checked out nowhere moves by ref only', async () => {
    const s = setup({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const made = await s.engine.create(s.repo, 'agent/side', 'main');
    made.done();
    writeFileSync(join(made.info.path, 'b.txt'), 'b from the agent\n');
    await s.engine.commit(made.info, 'agent edits b');
    writeFileSync(join(s.repo, 'a.txt'), 'a from the person\n');
    sh(s.repo, 'commit', '-qam', 'person edits a');
    // The person's checkout switches away: main is checked out nowhere.
    sh(s.repo, 'checkout', '-q', '-b', 'elsewhere');
    const before = snapshot(s.repo);
    const result = await mergeIntoBase(made.info, "Merge branch 'agent/side' into main");
    expect(result.outcome).toBe('merged');
    expect(sh(s.repo, 'show', 'main:b.txt')).toBe('b from the agent\n');
    expect(sh(s.repo, 'show', 'main:a.txt')).toBe('a from the person\n');
    expect(sh(s.repo, 'rev-list', '--parents', '-n', '1', 'main').trim().split(' ')).toHaveLength(3);
    expect(snapshot(s.repo)).toEqual(before);
  });

  it('merges with a merge commit into a base checked out in a clean working tree: its files, index and HEAD follow', async () => {
    const s = setup({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const made = await s.engine.create(s.repo, 'agent/side', 'main');
    made.done();
    writeFileSync(join(made.info.path, 'b.txt'), 'b from the agent\n');
    await s.engine.commit(made.info, 'agent edits b');
    writeFileSync(join(s.repo, 'a.txt'), 'a from the person\n');
    sh(s.repo, 'commit', '-qam', 'person edits a');
    writeFileSync(join(s.repo, 'scratch.txt'), 'untracked, left alone\n');
    const result = await mergeIntoBase(made.info, "Merge branch 'agent/side' into main");
    expect(result.outcome).toBe('merged');
    expect(readFileSync(join(s.repo, 'b.txt'), 'utf8')).toBe('b from the agent\n');
    expect(readFileSync(join(s.repo, 'a.txt'), 'utf8')).toBe('a from the person\n');
    expect(readFileSync(join(s.repo, 'scratch.txt'), 'utf8')).toBe('untracked, left alone\n');
    expect(sh(s.repo, 'status', '--porcelain')).toBe('?? scratch.txt\n');
    expect(sh(s.repo, 'log', '-1', '--format=%s%n%P', 'main').trim().split('\n')).toEqual([
      "Merge branch 'agent/side' into main",
      expect.stringMatching(/^\w{40} \w{40}$/),
    ]);
    expect((await s.engine.status(made.info)).ahead).toBe(0);
  });

  it('refuses to merge into a base checked out in a working tree with changes, touching nothing', async () => {
    const s = setup();
    const made = await s.engine.create(s.repo, 'agent/x', 'main');
    made.done();
    writeFileSync(join(made.info.path, 'new.txt'), 'new\n');
    await s.engine.commit(made.info, 'add new');
    writeFileSync(join(s.repo, 'shared.txt'), 'the person is editing\n');
    const before = snapshot(s.repo);
    await expect(mergeIntoBase(made.info, 'merge')).rejects.toThrow(/checked out in .* which has uncommitted changes/);
    expect(snapshot(s.repo)).toEqual(before);
    // Uncommitted work in the session's worktree is refused too.
    sh(s.repo, 'checkout', '-q', '--', 'shared.txt');
    writeFileSync(join(made.info.path, 'more.txt'), 'more\n');
    await expect(mergeIntoBase(made.info, 'merge')).rejects.toThrow(/1 uncommitted change: commit/);
  });
});
