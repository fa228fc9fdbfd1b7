import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lineHunks } from '../../src-shared/diff/lineHunks';
import { disposer, makeCore } from '../testing/coreHarness';
import { CheckpointService } from './checkpointService';
import { shadowName } from './shadowRepo';

/**
 * Checkpoints through the whole core with the fixture agent: whatever writes a file during a turn
 * (the client's fs/write_text_file, a terminal command, the agent process itself), the turn says
 * what changed, the Review rows keep and reject it, and "restore to before this message" undoes it.
 */
const harnesses = disposer();
afterEach(harnesses.disposeAll);

function setup() {
  const h = harnesses.track(makeCore([], { checkpoints: { enabled: true } }));
  const turnChanges = (sessionId: string, turn: number) => {
    const turnId = h.eventsOf(sessionId, 'turn.started')[turn - 1]?.turnId;
    return h.state(sessionId)?.checkpoints?.turns[turnId ?? '']?.files;
  };
  const promptAndSettle = async (sessionId: string, text: string) => {
    const turns = h.eventsOf(sessionId, 'turn.changes').length;
    await h.prompt(sessionId, text);
    await h.waitFor(() => h.eventsOf(sessionId, 'turn.changes').length > turns, 'the turn’s changes');
    return h.eventsOf(sessionId, 'turn.changes').at(-1)!;
  };
  return { h, turnChanges, promptAndSettle, file: (name: string) => join(h.workspace, name) };
}

describe('checkpoints around fixture-agent turns', () => {
  it('sees writes through fs/write_text_file, a terminal command and the agent itself, and restores each', async () => {
    const { h, promptAndSettle, file } = setup();
    writeFileSync(file('notes.txt'), 'line one\nline two\n');
    const sessionId = await h.newSession();
    // The folder's first checkpoint (every file stored) is taken when the session opens, not at the first prompt.
    const shadow = join(h.dataDir, 'checkpoints', shadowName(h.workspace));
    await h.waitFor(() => existsSync(join(shadow, 'refs', 'heads', 'master')) || existsSync(join(shadow, 'refs', 'heads', 'main')), 'the first snapshot');
    expect(h.eventsOf(sessionId, 'checkpoint.taken')).toEqual([]);

    const viaClient = await promptAndSettle(sessionId, 'cpwrite notes.txt line one\\nline 2 by the agent\\n');
    expect(viaClient.files).toEqual([{ root: h.workspace, path: 'notes.txt', status: 'modified' }]);
    const viaTerminal = await promptAndSettle(sessionId, 'terminal echo from-shell > shell.txt');
    expect(viaTerminal.files).toEqual([{ root: h.workspace, path: 'shell.txt', status: 'added' }]);
    const viaAgent = await promptAndSettle(sessionId, 'cpself self.txt written behind the client\\n');
    expect(viaAgent.files).toEqual([{ root: h.workspace, path: 'self.txt', status: 'added' }]);

    const checkpoints = h.state(sessionId).checkpoints!;
    const before = (turnId: string) => checkpoints.turns[turnId].before!;
    // Restore to before the third message: only the agent's own file goes.
    await h.core.handlers['checkpoint.restore']({ sessionId, checkpointId: before(viaAgent.turnId) });
    expect(existsSync(file('self.txt'))).toBe(false);
    expect(existsSync(file('shell.txt'))).toBe(true);
    // Before the second: the shell's file goes too.
    await h.core.handlers['checkpoint.restore']({ sessionId, checkpointId: before(viaTerminal.turnId) });
    expect(existsSync(file('shell.txt'))).toBe(false);
    expect(readFileSync(file('notes.txt'), 'utf8')).toBe('line one\nline 2 by the agent\n');
    // Before the first: the client write is undone.
    const preview = await h.core.handlers['checkpoint.preview']({ sessionId, checkpointId: before(viaClient.turnId) });
    expect(preview).toMatchObject({ label: '1', files: [{ path: 'notes.txt', action: 'restore', editedByYou: false }] });
    const { undoCheckpointId } = await h.core.handlers['checkpoint.restore']({ sessionId, checkpointId: before(viaClient.turnId) });
    expect(readFileSync(file('notes.txt'), 'utf8')).toBe('line one\nline two\n');

    // Restore of a restore: the undo brings the agent's line back.
    await h.core.handlers['checkpoint.restore']({ sessionId, checkpointId: undoCheckpointId });
    expect(readFileSync(file('notes.txt'), 'utf8')).toBe('line one\nline 2 by the agent\n');
    await h.waitFor(() => h.state(sessionId).entries.filter((entry) => entry.kind === 'restore').length === 4, 'four restore markers');

    // The next prompt tells the agent which files were restored to which message (the echo shows what it got).
    await h.prompt(sessionId, 'hello again');
    expect(h.agentText(sessionId)).toMatch(/restored these files to how they were before the restore of message 1.*notes\.txt/);
  });

  it('keeps and rejects single hunks, and refuses a reject after the file changed on disk', async () => {
    const { h, promptAndSettle, file } = setup();
    writeFileSync(file('code.txt'), 'a\nb\nc\nd\ne\nf\n');
    const sessionId = await h.newSession();
    const turn = await promptAndSettle(sessionId, 'cpwrite code.txt a\\nB\\nc\\nd\\ne\\nF\\n');
    const review = await h.core.handlers['checkpoint.review']({ sessionId, scope: turn.turnId });
    const [shown] = review.files;
    expect(shown).toMatchObject({ path: 'code.txt', status: 'modified', binary: false });
    const [first, second] = lineHunks(shown.oldText!, shown.newText!);

    await h.core.handlers['checkpoint.reject']({
      sessionId,
      scope: turn.turnId,
      root: h.workspace,
      path: 'code.txt',
      hunk: first.key,
      diskHash: shown.diskHash,
    });
    expect(readFileSync(file('code.txt'), 'utf8')).toBe('a\nb\nc\nd\ne\nF\n');
    await h.core.handlers['checkpoint.keep']({ sessionId, scope: turn.turnId, root: h.workspace, path: 'code.txt', hunks: [second.key] });
    await h.waitFor(() => Object.keys(h.state(sessionId).checkpoints?.kept ?? {}).length === 1, 'the kept hunk in the state');

    const again = (await h.core.handlers['checkpoint.review']({ sessionId, scope: turn.turnId })).files[0];
    writeFileSync(file('code.txt'), 'a\nb\nc\nd\ne\nF\nmy own line\n');
    await expect(
      h.core.handlers['checkpoint.reject']({ sessionId, scope: turn.turnId, root: h.workspace, path: 'code.txt', hunk: null, diskHash: again.diskHash }),
    ).rejects.toThrow(/changed on disk since the Review panel showed it, so nothing was written/);
    expect(readFileSync(file('code.txt'), 'utf8')).toBe('a\nb\nc\nd\ne\nF\nmy own line\n');
  });

  it('a host killed during a restore: the next start finishes it and says so in a notice', async () => {
    const { h, promptAndSettle, file } = setup();
    writeFileSync(file('a.txt'), 'one\n');
    writeFileSync(file('b.txt'), 'two\n');
    const sessionId = await h.newSession();
    const turn = await promptAndSettle(sessionId, 'cpself a.txt changed\n');
    await promptAndSettle(sessionId, 'cpself b.txt changed too\n');
    // The same service the core runs, over the same data folder, stopped after the first rename.
    const killed = new CheckpointService({ dataDir: h.dataDir, settings: () => ({ enabled: true, maxFileMB: 5, maxAgeDays: 30, maxTotalMB: 1024 }) });
    killed.crash = {
      beforeRename: (index) => {
        if (index === 1) throw new Error('killed');
      },
    };
    const before = h.state(sessionId).checkpoints!.turns[turn.turnId].before!;
    await expect(killed.restore(h.core.sessions.get(sessionId), before)).rejects.toThrow('killed');
    const half = [readFileSync(file('a.txt'), 'utf8'), readFileSync(file('b.txt'), 'utf8')];
    expect(half.filter((text) => text.includes('changed')).length).toBe(1);
    await h.dispose();

    const next = harnesses.track(makeCore([], { checkpoints: { enabled: true } }, { dataDir: h.dataDir, workspace: h.workspace }));
    await next.core.ready;
    expect(next.core.state().notices.map((notice) => notice.message)).toContainEqual(
      expect.stringMatching(/The app stopped during a restore \(to before message 1\); it was completed at this start/),
    );
    expect([readFileSync(file('a.txt'), 'utf8'), readFileSync(file('b.txt'), 'utf8')]).toEqual(['one\n', 'two\n']);
  });

  it('where git is missing: one clear notice, the turn and the agent’s write go on', async () => {
    const h = harnesses.track(makeCore([], { checkpoints: { enabled: true } }, { core: { checkpointEnv: { ...process.env, PATH: '/nonexistent-bin' } } }));
    const sessionId = await h.newSession();
    await h.prompt(sessionId, 'cpwrite plain.txt still written');
    await h.prompt(sessionId, 'hello');
    expect(readFileSync(join(h.workspace, 'plain.txt'), 'utf8')).toBe('still written');
    expect(h.notices(sessionId).map((notice) => notice.message)).toEqual([expect.stringMatching(/^Checkpoints are off: the system has no `git` command/)]);
    expect(h.eventsOf(sessionId, 'turn.changes')).toEqual([]);
    expect(h.agentText(sessionId)).toMatch(/Echo/);
  });
});
