import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lineHunks } from '../../src-shared/diff/lineHunks';
import { SESSION_SCOPE } from '../../src-shared/session/checkpointEvents';
import type { SessionEvent, SessionEventBody } from '../../src-shared/session/events';
import { reduceSession } from '../../src-shared/session/reducer';
import type { SessionState } from '../../src-shared/session/state';
import { CheckpointService, type CheckpointSession, type CheckpointSettings } from './checkpointService';

/** A session as the service sees it: its folders and a log folded with the app's reducer. */
class FakeSession implements CheckpointSession {
  readonly id = 's_test';
  events: SessionEvent[] = [];
  turn: unknown = null;
  private state: SessionState;
  constructor(readonly roots: string[]) {
    this.state = reduceSession(undefined, [this.make({ kind: 'session.created', agentId: 'a', agentName: 'A', cwd: roots[0] })]);
  }
  private make(body: SessionEventBody): SessionEvent {
    const event = { ...body, sessionId: this.id, seq: this.events.length + 1, ts: Date.now() } as SessionEvent;
    this.events.push(event);
    return event;
  }
  record(body: SessionEventBody): void {
    this.state = reduceSession(this.state, [this.make(body)]);
  }
  fold(): SessionState {
    return this.state;
  }
  /** A turn as the session runs it: recorded, checkpoint before, the agent's writes, checkpoint after. */
  async runTurn(service: CheckpointService, turnId: string, work: () => void): Promise<void> {
    this.record({ kind: 'turn.started', turnId, prompt: [{ type: 'text', text: turnId }] });
    await service.beforeTurn(this, turnId);
    work();
    this.record({ kind: 'turn.ended', turnId, stopReason: 'end_turn' });
    await service.afterTurn(this, turnId);
  }
  changes(turnId: string) {
    return this.state.checkpoints?.turns[turnId]?.files?.map((file) => `${file.status} ${file.path}`).sort();
  }
  notices(): string[] {
    return this.state.entries.flatMap((entry) => (entry.kind === 'notice' ? [entry.message] : []));
  }
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd,
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' },
  }).toString();

let root: string;
let data: string;
let folder: string;
let settings: CheckpointSettings;
let service: CheckpointService;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'acp-checkpoints-'));
  data = join(root, 'data');
  folder = join(root, 'project');
  mkdirSync(folder);
  settings = { enabled: true, maxFileMB: 1, maxAgeDays: 30, maxTotalMB: 1024 };
  service = new CheckpointService({ dataDir: data, settings: () => settings });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const write = (path: string, text: string | Buffer) => {
  mkdirSync(join(folder, path, '..'), { recursive: true });
  writeFileSync(join(folder, path), text);
};
const read = (path: string) => readFileSync(join(folder, path), 'utf8');

describe('checkpoints of a folder that is not a git repository', () => {
  it('lists what a turn changed, whoever wrote it, and restores it; the restore can be undone', async () => {
    write('a.txt', 'one\ntwo\nthree\n');
    write('keep.txt', 'untouched\n');
    const session = new FakeSession([folder]);
    await session.runTurn(service, 't1', () => {
      write('a.txt', 'one\nTWO\nthree\n');
      write('new/b.txt', 'created\n');
      rmSync(join(folder, 'keep.txt'));
    });
    expect(session.changes('t1')).toEqual(['added new/b.txt', 'deleted keep.txt', 'modified a.txt']);
    expect(existsSync(join(folder, '.git'))).toBe(false);

    const before = session.fold().checkpoints!.turns.t1.before!;
    const preview = await service.preview(session, before);
    expect(preview.files.map((f) => `${f.action} ${f.path}`).sort()).toEqual(['delete new/b.txt', 'recreate keep.txt', 'restore a.txt']);
    const { undoCheckpointId } = await service.restore(session, before);
    expect(read('a.txt')).toBe('one\ntwo\nthree\n');
    expect(read('keep.txt')).toBe('untouched\n');
    expect(existsSync(join(folder, 'new/b.txt'))).toBe(false);
    // The next prompt tells the agent which files were restored to which message.
    expect(session.fold().checkpoints!.pendingNote).toMatch(/before message 1.*a\.txt/);
    const marker = session.fold().entries.find((entry) => entry.kind === 'restore');
    expect(marker).toMatchObject({ kind: 'restore', label: '1', undoCheckpointId });

    // Restore of a restore: back to how the turn left the files.
    await service.restore(session, undoCheckpointId);
    expect(read('a.txt')).toBe('one\nTWO\nthree\n');
    expect(read('new/b.txt')).toBe('created\n');
    expect(existsSync(join(folder, 'keep.txt'))).toBe(false);
  });

  it('takes every folder of the session: the workspace and an additional folder, each restored', async () => {
    const extra = join(root, 'extra');
    mkdirSync(extra);
    writeFileSync(join(extra, 'lib.txt'), 'lib\n');
    write('main.txt', 'main\n');
    const session = new FakeSession([folder, extra]);
    await session.runTurn(service, 't1', () => {
      write('main.txt', 'main changed\n');
      writeFileSync(join(extra, 'lib.txt'), 'lib changed\n');
    });
    expect(session.fold().checkpoints!.turns.t1.files!.map((file) => [file.root, file.path])).toEqual([
      [folder, 'main.txt'],
      [extra, 'lib.txt'],
    ]);
    await service.restore(session, session.fold().checkpoints!.turns.t1.before!);
    expect([read('main.txt'), readFileSync(join(extra, 'lib.txt'), 'utf8')]).toEqual(['main\n', 'lib\n']);
  });

  it('takes a cheap checkpoint when nothing changed: the same commit, no new object', async () => {
    write('a.txt', 'x\n');
    const session = new FakeSession([folder]);
    await session.runTurn(service, 't1', () => undefined);
    const cps = session.fold().checkpoints!;
    const commits = Object.values(cps.snapshots).map((folders) => folders[0].commit);
    expect(new Set(commits).size).toBe(1);
    expect(session.changes('t1')).toEqual([]);
  });
});

describe('checkpoints of a git repository', () => {
  it('leaves the person’s status, index, stash and branches byte for byte as they were', async () => {
    write('a.txt', 'base\n');
    write('b.txt', 'base b\n');
    git(folder, 'init', '-q', '-b', 'main');
    git(folder, 'add', '-A');
    git(folder, 'commit', '-q', '-m', 'init');
    git(folder, 'branch', 'feature');
    write('b.txt', 'stashed\n');
    git(folder, 'stash', '-q');
    write('a.txt', 'staged\n');
    git(folder, 'add', 'a.txt');
    write('a.txt', 'staged and more\n');
    write('untracked.txt', 'u\n');
    const look = () => ({
      status: git(folder, 'status', '--porcelain=v2', '--branch'),
      stash: git(folder, 'stash', 'list'),
      branches: git(folder, 'branch', '-a', '-v'),
      index: readFileSync(join(folder, '.git', 'index')).toString('base64'),
      refs: readdirSync(join(folder, '.git', 'refs', 'heads')).sort(),
    });
    const before = look();

    const session = new FakeSession([folder]);
    await session.runTurn(service, 't1', () => write('a.txt', 'agent\n'));
    const reviewed = await service.review(session, 't1');
    await service.reject(session, { scope: 't1', root: folder, path: 'a.txt', hunk: null, diskHash: reviewed.files[0].diskHash });
    expect(read('a.txt')).toBe('staged and more\n');
    const checkpoint = session.fold().checkpoints!.turns.t1.before!;
    await service.restore(session, checkpoint);

    expect(look()).toEqual(before);
  });

  it('respects .gitignore: a build folder is neither listed nor restored', async () => {
    write('.gitignore', 'build/\n');
    write('src.txt', 'source\n');
    write('build/out.js', 'old build\n');
    git(folder, 'init', '-q');
    const session = new FakeSession([folder]);
    await session.runTurn(service, 't1', () => {
      write('build/out.js', 'new build\n');
      write('build/more.js', 'more\n');
      write('src.txt', 'changed\n');
    });
    expect(session.changes('t1')).toEqual(['modified src.txt']);
    await service.restore(session, session.fold().checkpoints!.turns.t1.before!);
    expect(read('src.txt')).toBe('source\n');
    expect(read('build/out.js')).toBe('new build\n');
    expect(read('build/more.js')).toBe('more\n');
  });
});

describe('what a checkpoint holds', () => {
  it('stores a binary file byte for byte and shows it as binary', async () => {
    const image = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 255, 0, 10]);
    write('logo.png', image);
    const session = new FakeSession([folder]);
    await session.runTurn(service, 't1', () => write('logo.png', Buffer.from([0, 0, 0, 1])));
    const review = await service.review(session, 't1');
    expect(review.files).toEqual([expect.objectContaining({ path: 'logo.png', binary: true, status: 'modified' })]);
    await service.restore(session, session.fold().checkpoints!.turns.t1.before!);
    expect(readFileSync(join(folder, 'logo.png')).equals(image)).toBe(true);
  });

  it('offers a file that is not UTF-8 whole only, so no byte of it is lost', async () => {
    const latin1 = Buffer.from('caf\xe9\nna\xefve\n', 'latin1');
    write('old.txt', latin1);
    const session = new FakeSession([folder]);
    await session.runTurn(service, 't1', () => write('old.txt', Buffer.concat([latin1, Buffer.from('more\n')])));
    const [file] = (await service.review(session, 't1')).files;
    expect(file).toMatchObject({ path: 'old.txt', binary: true });
    await expect(service.reject(session, { scope: 't1', root: folder, path: 'old.txt', hunk: 'any-0', diskHash: file.diskHash })).rejects.toThrow(
      /not a text file: reject it whole/,
    );
    await service.reject(session, { scope: 't1', root: folder, path: 'old.txt', hunk: null, diskHash: file.diskHash });
    expect(readFileSync(join(folder, 'old.txt')).equals(latin1)).toBe(true);
  });

  it('leaves out a file over the size limit, says so, and never restores over it', async () => {
    write('small.txt', 'small\n');
    const session = new FakeSession([folder]);
    await session.runTurn(service, 't1', () => {
      write('big.bin', Buffer.alloc(2 * 1024 * 1024, 1));
      write('small.txt', 'changed\n');
    });
    expect(session.changes('t1')).toEqual(['modified small.txt']);
    expect(session.notices().join('\n')).toMatch(/leave out 1 file\(s\) over 1 MB.*big\.bin/);
    await service.restore(session, session.fold().checkpoints!.turns.t1.before!);
    expect(read('small.txt')).toBe('small\n');
    expect(statSync(join(folder, 'big.bin')).size).toBe(2 * 1024 * 1024);

    // A file tracked while small that grows over the limit: taken out of the checkpoint, never replaced by its old copy.
    write('grows.txt', 'tiny\n');
    await session.runTurn(service, 't2', () => undefined);
    await session.runTurn(service, 't3', () => write('grows.txt', Buffer.alloc(2 * 1024 * 1024, 2)));
    const preview = await service.preview(session, session.fold().checkpoints!.turns.t3.before!);
    expect(preview.files.map((f) => f.path)).not.toContain('grows.txt');
    expect(preview.skipped.join('\n')).toMatch(/grows\.txt \(over the size limit/);
  });

  it('turns itself off with a clear message where git is missing, and the turn goes on', async () => {
    const noGit = new CheckpointService({ dataDir: data, settings: () => settings, env: { ...process.env, PATH: join(root, 'empty') } });
    const session = new FakeSession([folder]);
    await session.runTurn(noGit, 't1', () => write('a.txt', 'x'));
    expect(await noGit.unavailable()).toMatch(/no `git` command/);
    expect(session.notices()).toEqual([expect.stringMatching(/Checkpoints are off: the system has no `git` command/)]);
    expect(session.fold().checkpoints?.unavailable).toMatch(/no `git`/);
    await session.runTurn(noGit, 't2', () => undefined);
    expect(session.notices()).toHaveLength(1); // said once, not on every turn
    expect(read('a.txt')).toBe('x');
  });

  it('does nothing when turned off in settings', async () => {
    settings.enabled = false;
    const session = new FakeSession([folder]);
    await session.runTurn(service, 't1', () => write('a.txt', 'x'));
    expect(existsSync(join(data, 'checkpoints'))).toBe(false);
    // The person chose it: nothing in the transcript; the Review panel says it is off.
    expect(session.events.map((event) => event.kind)).toEqual(['session.created', 'turn.started', 'turn.ended']);
    expect((await service.review(session, SESSION_SCOPE)).unavailable).toMatch(/turned off/);
  });
});

describe('keep and reject in the Review panel', () => {
  it('rejects one hunk and keeps the others, and refuses when the file changed on disk since', async () => {
    write('code.ts', 'a\nb\nc\nd\ne\nf\ng\nh\n');
    const session = new FakeSession([folder]);
    await session.runTurn(service, 't1', () => write('code.ts', 'a\nB\nc\nd\ne\nf\nG\nh\n'));
    let [file] = (await service.review(session, 't1')).files;
    const [first, second] = lineHunks(file.oldText!, file.newText!);
    await service.reject(session, { scope: 't1', root: folder, path: 'code.ts', hunk: second.key, diskHash: file.diskHash });
    expect(read('code.ts')).toBe('a\nB\nc\nd\ne\nf\ng\nh\n');

    service.keep(session, 't1', folder, 'code.ts', [first.key]);
    expect(Object.values(session.fold().checkpoints!.kept)).toEqual([[first.key]]);

    [file] = (await service.review(session, SESSION_SCOPE)).files;
    write('code.ts', 'a\nB\nc\nd\ne\nf\ng\nh\nmine\n'); // the person edits it meanwhile
    await expect(service.reject(session, { scope: SESSION_SCOPE, root: folder, path: 'code.ts', hunk: null, diskHash: file.diskHash })).rejects.toThrow(
      /changed on disk since the Review panel showed it, so nothing was written/,
    );
    expect(read('code.ts')).toBe('a\nB\nc\nd\ne\nf\ng\nh\nmine\n');
    // Shown again, the person's line is named as an edit since the turn.
    [file] = (await service.review(session, 't1')).files;
    expect(file.editedSince).toBe(true);
  });

  it('writes nothing outside the session folders', async () => {
    const outside = join(root, 'outside');
    mkdirSync(outside);
    symlinkSync(outside, join(folder, 'link'));
    write('a.txt', 'a\n');
    const session = new FakeSession([folder]);
    await session.runTurn(service, 't1', () => write('a.txt', 'b\n'));
    const attempt = (root: string, path: string) => service.reject(session, { scope: 't1', root, path, hunk: null, diskHash: 'missing' });
    await expect(attempt(outside, 'a.txt')).rejects.toThrow(/not a folder of this session/);
    await expect(attempt(folder, '../outside/a.txt')).rejects.toThrow(/not a path inside/);
    await expect(attempt(folder, 'link/a.txt')).rejects.toThrow(/leads outside/);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('marks in the restore preview the files the person edited since the last turn', async () => {
    write('a.txt', 'a\n');
    write('b.txt', 'b\n');
    const session = new FakeSession([folder]);
    await session.runTurn(service, 't1', () => {
      write('a.txt', 'agent a\n');
      write('b.txt', 'agent b\n');
    });
    write('b.txt', 'person b\n');
    const preview = await service.preview(session, session.fold().checkpoints!.turns.t1.before!);
    expect(preview.files.map((f) => [f.path, f.editedByYou])).toEqual([
      ['a.txt', false],
      ['b.txt', true],
    ]);
  });
});

describe('a host killed half-way', () => {
  it('before the commit point: the folder is as before, and the next start says so', async () => {
    write('a.txt', 'a1\n');
    write('b.txt', 'b1\n');
    const session = new FakeSession([folder]);
    await session.runTurn(service, 't1', () => {
      write('a.txt', 'a2\n');
      write('b.txt', 'b2\n');
    });
    service.crash = {
      beforeCommit: () => {
        throw new Error('killed');
      },
    };
    await expect(service.restore(session, session.fold().checkpoints!.turns.t1.before!)).rejects.toThrow('killed');
    const next = new CheckpointService({ dataDir: data, settings: () => settings });
    expect(next.recover()).toEqual([expect.stringMatching(/stopped before a restore .* changed anything; your files are as they were before it/)]);
    expect([read('a.txt'), read('b.txt')]).toEqual(['a2\n', 'b2\n']);
    expect(readdirSync(folder).filter((name) => name.includes('.acp-'))).toEqual([]);
  });

  it('after the commit point: the restore is finished at the next start', async () => {
    write('a.txt', 'a1\n');
    write('b.txt', 'b1\n');
    const session = new FakeSession([folder]);
    await session.runTurn(service, 't1', () => {
      write('a.txt', 'a2\n');
      write('b.txt', 'b2\n');
    });
    service.crash = {
      beforeRename: (index) => {
        if (index === 1) throw new Error('killed');
      },
    };
    await expect(service.restore(session, session.fold().checkpoints!.turns.t1.before!)).rejects.toThrow('killed');
    expect([read('a.txt'), read('b.txt')]).toEqual(['a1\n', 'b2\n']); // half: what the next start repairs
    const next = new CheckpointService({ dataDir: data, settings: () => settings });
    expect(next.recover()).toEqual([expect.stringMatching(/stopped during a restore .* it was completed at this start/)]);
    expect([read('a.txt'), read('b.txt')]).toEqual(['a1\n', 'b1\n']);
  });
});

it('takes no checkpoint of the home folder', async () => {
  const home = new FakeSession([homedir()]);
  await home.runTurn(service, 't1', () => undefined);
  expect(home.notices()).toEqual([expect.stringMatching(/No checkpoints of .*: it is your home folder/)]);
});

describe('pruning', () => {
  it('drops checkpoints older than the age limit and says what a pruned one can no longer do', async () => {
    write('a.txt', 'a\n');
    const session = new FakeSession([folder]);
    await session.runTurn(service, 't1', () => write('a.txt', 'b\n'));
    const result = await service.prune(Date.now() + 40 * 86_400_000);
    expect(result.removed).toBeGreaterThan(0);
    await expect(service.preview(session, session.fold().checkpoints!.turns.t1.before!)).rejects.toThrow(/was pruned/);
  });

  it('drops the oldest checkpoints while they take more than the space limit, keeping the newest', async () => {
    const session = new FakeSession([folder]);
    // Incompressible versions of one file: each old version is held only by older checkpoints.
    for (let i = 0; i < 4; i++) await session.runTurn(service, `t${i}`, () => write('data.bin', randomBytes(200_000)));
    expect(service.spaceUsed()).toBeGreaterThan(0.75 * 1024 * 1024);
    settings.maxTotalMB = 0.6;
    const result = await service.prune();
    expect(result.removed).toBeGreaterThan(0);
    expect(result.bytes).toBeLessThanOrEqual(0.6 * 1024 * 1024);
    const last = session.fold().checkpoints!.turns.t3.after!;
    await expect(service.preview(session, last)).resolves.toMatchObject({ checkpointId: last });
    await expect(service.preview(session, session.fold().checkpoints!.turns.t0.before!)).rejects.toThrow(/was pruned/);
  });
});

// Executable bits survive a restore (a script the agent rewrote stays runnable).
it('keeps the executable bit of a restored file', async () => {
  write('run.sh', '#!/bin/sh\necho one\n');
  chmodSync(join(folder, 'run.sh'), 0o755);
  const session = new FakeSession([folder]);
  await session.runTurn(service, 't1', () => rmSync(join(folder, 'run.sh')));
  await service.restore(session, session.fold().checkpoints!.turns.t1.before!);
  expect(statSync(join(folder, 'run.sh')).mode & 0o111).not.toBe(0);
});
