import { useEffect, useRef } from 'react';
import type { WorktreeCommit } from '../../../src-shared/ipc/worktreeContract';

/** Asks before removing a worktree and its branch, naming everything that will be lost. */
export function DiscardDialog({
  what,
  files,
  commits,
  onCancel,
  onConfirm,
}: {
  what: string;
  files: string[];
  commits: WorktreeCommit[];
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);
  const nothing = files.length === 0 && commits.length === 0;
  return (
    <dialog ref={dialog} className="dialog" aria-labelledby="discard-title" onClose={onCancel}>
      <h2 id="discard-title">Discard this worktree?</h2>
      <p>This removes {what}.</p>
      {nothing ? (
        <p>Nothing is lost: every commit is on another branch and there are no uncommitted changes.</p>
      ) : (
        <>
          {files.length > 0 && (
            <>
              <p>
                <strong>
                  {files.length} uncommitted file{files.length === 1 ? '' : 's'} will be lost:
                </strong>
              </p>
              <ul className="worktree-list" aria-label="Uncommitted files that will be lost">
                {files.map((file) => (
                  <li key={file}>
                    <code>{file}</code>
                  </li>
                ))}
              </ul>
            </>
          )}
          {commits.length > 0 && (
            <>
              <p>
                <strong>
                  {commits.length} commit{commits.length === 1 ? '' : 's'} not merged anywhere will be lost:
                </strong>
              </p>
              <ul className="worktree-list" aria-label="Unmerged commits that will be lost">
                {commits.map((commit) => (
                  <li key={commit.sha}>
                    <code>{commit.sha.slice(0, 8)}</code> {commit.subject}
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
      <div className="dialog-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="danger" onClick={onConfirm}>
          Discard worktree and branch
        </button>
      </div>
    </dialog>
  );
}
