import { useEffect, useRef, useState } from 'react';
import type { RestorePreview } from '../../../src-shared/ipc/checkpointContract';
import { useStore } from '../../store';
import { previewRestore, restoreFiles } from './actions';

/**
 * "Restore to before this message": a preview of the files that will change (those the person
 * edited since the last turn are named as such), then the restore. Files only: ACP has no way to
 * rewind an agent's conversation (the rewind RFDs are drafts), so the conversation stays and the
 * agent is told with the next prompt which files were restored.
 */
export function RestoreDialog({ sessionId, checkpointId, title, onClose }: { sessionId: string; checkpointId: string; title: string; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [preview, setPreview] = useState<RestorePreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    let live = true;
    previewRestore(sessionId, checkpointId).then(
      (result) => live && setPreview(result),
      (failure: Error) => live && setError(failure.message),
    );
    return () => {
      live = false;
    };
  }, [sessionId, checkpointId]);

  const restore = async () => {
    setBusy(true);
    try {
      const result = await restoreFiles(sessionId, checkpointId);
      useStore.getState().showToast(`Restored ${result.restored} file${result.restored === 1 ? '' : 's'}.`);
      onClose();
    } catch (failure) {
      setError((failure as Error).message);
      setBusy(false);
    }
  };

  const edited = preview?.files.filter((file) => file.editedByYou).length ?? 0;
  return (
    <dialog ref={dialog} className="dialog restore-dialog" aria-labelledby="restore-title" onClose={onClose}>
      <form
        method="dialog"
        onSubmit={(event) => {
          event.preventDefault();
          void restore();
        }}
      >
        <h2 id="restore-title">{title}</h2>
        <p className="muted small">
          Restores files only: the conversation with the agent is not rewound (this agent offers no way to). The agent is told which files were restored with
          your next message. A checkpoint is taken first, so this restore can be undone.
        </p>
        {error && (
          <p role="alert" className="restore-error">
            {error}
          </p>
        )}
        {!preview && !error && <p className="muted">Comparing the files with the checkpoint…</p>}
        {preview && preview.files.length === 0 && <p>No file differs from the checkpoint: nothing to restore.</p>}
        {preview && preview.files.length > 0 && (
          <>
            <p>
              {preview.files.length} file{preview.files.length === 1 ? '' : 's'} will change
              {edited > 0 && (
                <strong>
                  {' '}
                  ({edited} of them edited by you since the agent’s last turn: your edits to {edited === 1 ? 'it' : 'them'} are undone too)
                </strong>
              )}
              :
            </p>
            <ul className="restore-files" aria-label="Files that will change">
              {preview.files.map((file) => (
                <li key={`${file.root}\0${file.path}`}>
                  <code>{file.path}</code> <span className="muted small">{ACTIONS[file.action]}</span>
                  {file.editedByYou && (
                    <>
                      {' '}
                      <span className="badge-neutral restore-edited">edited by you since</span>
                    </>
                  )}
                </li>
              ))}
            </ul>
          </>
        )}
        {preview && preview.skipped.length > 0 && (
          <details>
            <summary>{preview.skipped.length} file(s) left as they are</summary>
            <ul className="restore-files">
              {preview.skipped.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </details>
        )}
        <div className="dialog-actions">
          <button type="button" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={!preview || preview.files.length === 0 || busy}>
            {busy ? 'Restoring…' : 'Restore files'}
          </button>
        </div>
      </form>
    </dialog>
  );
}

const ACTIONS = { restore: 'back to its earlier text', delete: 'deleted (it did not exist)', recreate: 'brought back (it was deleted)' } as const;
