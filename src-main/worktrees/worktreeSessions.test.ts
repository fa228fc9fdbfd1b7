import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeCore, type Harness } from '../testing/coreHarness';
import { hermeticGit, makeRepo, sh, snapshot } from '../testing/gitRepo';

// Real git in temporary repositories, the fixture agent writing files in each session's cwd.

const harnesses: Harness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.dispose()));
});
beforeAll(hermeticGit);

const settings = { worktrees: { copyFiles: ['.env', 'config/local.json', 'missing.txt'] } };

function start(repo: string, dataDir?: string): Harness {
  const h = makeCore([], settings, { workspace: repo, dataDir });
  harnesses.push(h);
  return h;
}

async function worktreeSession(h: Harness, cwd: string, branch: string): Promise<string> {
  const { sessionId } = await h.core.handlers['worktree.newSession']({ agentId: 'fixture', cwd, branch, base: 'main' });
  await h.waitFor(() => h.connected(sessionId), 'the session to connect');
  return sessionId;
}

const branches = (repo: string) => sh(repo, 'for-each-ref', '--format=%(refname:short)', 'refs/heads').split('\n').filter(Boolean).sort();
const worktreePaths = (repo: string) =>
  sh(repo, 'worktree', 'list', '--porcelain')
    .split('\n')
    .filter((line) => line.startsWith('worktree '))
    .map((line) => line.slice(9));

describe('worktree sessions with real git', () => {
  it('two sessions edit the same file in parallel; one merges, the other conflicts with the base untouched; discard removes the rest', async () => {
    const repo = makeRepo({ 'shared.txt': 'line\n', 'README.md': '# repo\n' });
    writeFileSync(join(repo, '.env'), 'SECRET=1\n');
    writeFileSync(join(repo, 'other.local'), 'not listed\n');
    const h = start(repo);
    await h.core.ready;

    const probe = await h.core.handlers['worktree.probe']({ cwd: repo, agentId: 'fixture' });
    expect(probe).toMatchObject({ available: true, reason: null, currentBranch: 'main', branches: ['main'], repoRoot: repo });
    expect(probe.suggestedBranch).toMatch(/^fixture\/session-[0-9a-f]{4}$/);

    const a = await worktreeSession(h, repo, 'fixture/a');
    const b = await worktreeSession(h, repo, 'fixture/b');
    const infoA = h.core.worktrees.require(a);
    const infoB = h.core.worktrees.require(b);
    expect(infoA.path.startsWith(join(h.dataDir, 'worktrees'))).toBe(true);
    expect(h.core.state().sessions.find((s) => s.sessionId === a)?.worktree).toEqual({ branch: 'fixture/a', base: 'main' });
    expect(h.state(a).cwd).toBe(infoA.path);
    // The listed file that exists is copied; nothing else is.
    expect(readFileSync(join(infoA.path, '.env'), 'utf8')).toBe('SECRET=1\n');
    expect(existsSync(join(infoA.path, 'other.local'))).toBe(false);
    expect(infoA.copied).toEqual(['.env']);

    await Promise.all([h.prompt(a, 'writefile shared.txt from session A'), h.prompt(b, 'writefile shared.txt from session B')]);
    expect(readFileSync(join(repo, 'shared.txt'), 'utf8')).toBe('line\n');
    expect(readFileSync(join(infoA.path, 'shared.txt'), 'utf8')).toBe('from session A\n');
    expect(readFileSync(join(infoB.path, 'shared.txt'), 'utf8')).toBe('from session B\n');

    // Both reviewed: the uncommitted change and the diff against main (the copied .env is not the agent's work).
    const reviewA = await h.core.handlers['worktree.status']({ sessionId: a });
    expect(reviewA).toMatchObject({
      exists: true,
      ahead: 0,
      behind: 0,
      uncommitted: [{ path: 'shared.txt', status: ' M' }],
      baseCheckedOutIn: repo,
      baseDirty: false,
    });
    expect(reviewA.diff).toContain('-line\n+from session A');
    expect(reviewA.diff).not.toContain('.env');
    const reviewB = await h.core.handlers['worktree.status']({ sessionId: b });
    expect(reviewB.diff).toContain('+from session B');

    await h.core.handlers['worktree.commit']({ sessionId: a, message: 'Session A edits' });
    const { sha: shaB } = await h.core.handlers['worktree.commit']({ sessionId: b, message: 'Session B edits' });
    const committedA = await h.core.handlers['worktree.status']({ sessionId: a });
    expect(committedA).toMatchObject({ ahead: 1, uncommitted: [], commits: [{ subject: 'Session A edits' }] });
    expect(sh(repo, 'show', '--name-only', '--format=', 'fixture/a').trim()).toBe('shared.txt');

    const merged = await h.core.handlers['worktree.merge']({ sessionId: a });
    expect(merged.outcome).toBe('fastForward');
    expect(readFileSync(join(repo, 'shared.txt'), 'utf8')).toBe('from session A\n');
    expect(sh(repo, 'status', '--porcelain', '--untracked-files=no')).toBe('');

    const before = snapshot(repo);
    const conflict = await h.core.handlers['worktree.merge']({ sessionId: b });
    expect(conflict).toMatchObject({ outcome: 'conflict', conflicts: ['shared.txt'] });
    expect(snapshot(repo)).toEqual(before);
    expect(existsSync(join(repo, '.git', 'MERGE_HEAD'))).toBe(false);

    // Discard refuses to lose more than was confirmed, then removes worktree and branch.
    await expect(h.core.handlers['worktree.discard']({ sessionId: b, lose: { files: [], commits: [] } })).rejects.toThrow(/more to lose than you confirmed/);
    expect(existsSync(infoB.path)).toBe(true);
    await h.core.handlers['worktree.discard']({ sessionId: b, lose: { files: [], commits: [shaB] } });
    expect(existsSync(infoB.path)).toBe(false);
    expect(branches(repo)).toEqual(['fixture/a', 'main']);
    expect(worktreePaths(repo)).toEqual([repo, infoA.path]);
    expect(h.core.state().tabs.open).not.toContain(b);
    expect(h.core.worktrees.info(b)).toBeUndefined();
  });

  it('a session that cannot start takes its new worktree and branch with it', async () => {
    const repo = makeRepo();
    const h = start(repo);
    await h.core.ready;
    await expect(h.core.handlers['worktree.newSession']({ agentId: 'nope', cwd: repo, branch: 'nope/x', base: 'main' })).rejects.toThrow(
      'Unknown agent "nope".',
    );
    expect(branches(repo)).toEqual(['main']);
    expect(worktreePaths(repo)).toEqual([repo]);
    expect(h.core.state().sessions).toEqual([]);
  });

  it('a worktree session survives a restart, and one whose session is gone is offered for cleanup', async () => {
    const repo = makeRepo();
    const first = start(repo);
    await first.core.ready;
    const kept = await worktreeSession(first, repo, 'fixture/kept');
    const gone = await worktreeSession(first, repo, 'fixture/gone');
    await first.prompt(gone, 'writefile work.txt unsaved work');
    await first.core.handlers['worktree.keep']({ sessionId: kept });
    const goneInfo = first.core.worktrees.require(gone);
    first.core.sessions.flush();
    await first.dispose();
    harnesses.splice(harnesses.indexOf(first), 1);
    rmSync(join(first.dataDir, 'sessions', `${gone}.jsonl`));

    const second = start(repo, first.dataDir);
    await second.core.ready;
    const state = second.core.state();
    expect(state.tabs.open).toContain(kept);
    expect(state.sessions.find((s) => s.sessionId === kept)?.worktree).toEqual({ branch: 'fixture/kept', base: 'main' });
    expect(await second.core.handlers['worktree.status']({ sessionId: kept })).toMatchObject({
      exists: true,
      ahead: 0,
      info: { branch: 'fixture/kept', kept: true },
    });

    const { orphans } = await second.core.handlers['worktree.orphans']({});
    expect(orphans).toEqual([
      {
        path: goneInfo.path,
        branch: 'fixture/gone',
        repoRoot: repo,
        reason: 'Its session no longer exists.',
        uncommitted: [{ path: 'work.txt', status: '??' }],
        commits: [],
      },
    ]);
    await expect(second.core.handlers['worktree.cleanup']({ path: goneInfo.path, lose: { files: [], commits: [] } })).rejects.toThrow(/work\.txt/);
    await second.core.handlers['worktree.cleanup']({ path: goneInfo.path, lose: { files: ['work.txt'], commits: [] } });
    expect(existsSync(goneInfo.path)).toBe(false);
    expect(branches(repo)).toEqual(['fixture/kept', 'main']);
    expect((await second.core.handlers['worktree.orphans']({})).orphans).toEqual([]);
  });
});
