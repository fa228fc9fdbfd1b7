// Tests only: creates one worktree in a process of its own, so a test can kill it with SIGKILL
// at a chosen step (or at any moment) and check that nothing is left that blocks the next try.
// Usage: tsx worktreeChild.ts <journalDir> <folder> <cwd> <branch> <base> <killAt: journaled|added|copied|never>
import { WorktreeEngine, type CreateStep } from '../worktrees/worktreeEngine';

const [journalDir, folder, cwd, branch, base, killAt] = process.argv.slice(2);
const engine = new WorktreeEngine({
  folder: () => folder,
  copyFiles: () => ['.env'],
  journalDir,
  afterStep: (step: CreateStep) => {
    if (step === killAt) process.kill(process.pid, 'SIGKILL');
  },
});
void engine.create(cwd, branch, base).then(
  () => process.stdout.write('created\n'),
  (error: Error) => {
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 1;
  },
);
