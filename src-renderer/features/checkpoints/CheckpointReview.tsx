import { useEffect, useMemo, useState } from 'react';
import type { ReviewFile } from '../../../src-shared/ipc/checkpointContract';
import { lineHunks, type LineHunk } from '../../../src-shared/diff/lineHunks';
import { SESSION_SCOPE } from '../../../src-shared/session/checkpointEvents';
import { keptKey } from '../../../src-shared/session/reduceCheckpoints';
import { usePicked, useSessionUi, useStore } from '../../store';
import { Icon } from '../../ui/Icon';
import { DiffBlock } from '../diff/DiffBlock';
import { keepHunks, rejectChange, reviewFiles } from './actions';

/** Above this many characters (old + new) a file is reviewed whole. */
const MAX_HUNK_TEXT = 512 * 1024;

/** The key kept for a file reviewed whole (binary, too large, deleted). */
const WHOLE = 'whole';

/** True when the session's checkpoints saw any turn change a file (the Review tab then shows them). */
export function useHasCheckpointChanges(sessionId: string): boolean {
  return useStore((s) => {
    const turns = s.sessions[sessionId]?.checkpoints?.turns;
    return Boolean(turns && Object.values(turns).some((turn) => (turn.files?.length ?? 0) > 0));
  });
}

/**
 * The Review panel from checkpoints: every file a turn (or the whole session) changed on disk,
 * whoever wrote it, with its diff (Monaco) and Keep / Reject for the file and for each hunk.
 * The texts come from main (the checkpoint and the disk); a reject names the disk text it was
 * shown, so main refuses when the file changed since.
 */
export function CheckpointReview({ sessionId }: { sessionId: string }) {
  const checkpoints = useStore((s) => s.sessions[sessionId]?.checkpoints);
  // Message numbers count every message: all of them are loaded while shown (paging, issue 23).
  const loaded = usePicked(sessionId, 'user');
  const userNumbers = useStore((s) => (loaded ? s.sessions[sessionId]?.entries : undefined));
  const scope = useSessionUi(sessionId, (ui) => ui.reviewScope ?? SESSION_SCOPE);
  const selected = useSessionUi(sessionId, (ui) => ui.reviewPath);
  const [files, setFiles] = useState<ReviewFile[] | null>(null);
  const [unavailable, setUnavailable] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reload, setReload] = useState(0);
  // While the files are read again, what the panel shows may be older than the disk.
  const [reading, setReading] = useState(true);
  const patch = (p: { reviewScope?: string; reviewPath?: string | null }) => useStore.getState().patchSessionUi(sessionId, p);

  // Read again whenever a checkpoint event arrives (a turn ended, a reject or a restore wrote files).
  useEffect(() => {
    let live = true;
    setReading(true);
    reviewFiles(sessionId, scope)
      .then(
        (result) => {
          if (!live) return;
          setFiles(result.files);
          setUnavailable(result.unavailable);
        },
        (failure: Error) => live && setError(failure.message),
      )
      .finally(() => live && setReading(false));
    return () => {
      live = false;
    };
  }, [sessionId, scope, checkpoints, reload]);

  const turns = useMemo(() => {
    const numbers = new Map<string, number>();
    let count = 0;
    for (const entry of userNumbers ?? []) if (entry?.kind === 'user') numbers.set(entry.turnId, ++count);
    return (checkpoints?.order ?? [])
      .filter((turnId) => (checkpoints?.turns[turnId]?.files?.length ?? 0) > 0)
      .map((turnId) => ({ turnId, number: numbers.get(turnId) ?? 0, count: checkpoints!.turns[turnId].files!.length }));
  }, [checkpoints, userNumbers]);

  const rows = useMemo(
    () =>
      (files ?? []).map((file) => {
        // Hunks of big texts are not offered (the line diff would hold up the window): kept or rejected whole.
        const whole = file.binary || file.tooLarge || file.newText === null || (file.oldText?.length ?? 0) + file.newText.length > MAX_HUNK_TEXT;
        const hunks = whole ? [] : lineHunks(file.oldText ?? '', file.newText ?? '');
        const kept = new Set(checkpoints?.kept[keptKey(scope, file.root, file.path)] ?? []);
        const pending = hunks.filter((hunk) => !kept.has(hunk.key));
        return { file, whole, hunks, pending, isKept: whole ? kept.has(WHOLE) : pending.length === 0 };
      }),
    [files, checkpoints, scope],
  );
  const current = rows.find((row) => row.file.path === selected) ?? rows.find((row) => !row.isKept) ?? rows[0];

  const act = async (work: Promise<unknown>) => {
    setError(null);
    try {
      await work;
    } catch (failure) {
      setError((failure as Error).message);
      setReload((n) => n + 1); // show the file as it is now
    }
  };

  return (
    <div className="review-view checkpoint-review" aria-busy={reading}>
      <div className="review-scope">
        <label>
          <span className="muted small">Changes of</span>
          <select aria-label="Review scope" value={scope} onChange={(event) => patch({ reviewScope: event.target.value, reviewPath: null })}>
            <option value={SESSION_SCOPE}>the whole session</option>
            {turns.map((turn) => (
              <option key={turn.turnId} value={turn.turnId}>
                message {turn.number} ({turn.count} file{turn.count === 1 ? '' : 's'})
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="link-button" onClick={() => setReload((n) => n + 1)}>
          Refresh
        </button>
      </div>
      {unavailable && <p className="muted small">{unavailable}</p>}
      {error && (
        <p role="alert" className="review-error">
          {error}
        </p>
      )}
      <p className="muted small">
        {files === null ? 'Reading the changes…' : `${rows.length} file${rows.length === 1 ? '' : 's'} changed on disk, whoever wrote them`}
      </p>
      <ul className="review-list" aria-label="Changed files">
        {rows.map((row) => (
          <li key={`${row.file.root}\0${row.file.path}`}>
            <button
              type="button"
              aria-current={row === current ? 'true' : undefined}
              className={row === current ? 'selected' : undefined}
              onClick={() => patch({ reviewPath: row.file.path })}
            >
              <Icon name={row.file.status === 'deleted' ? 'delete' : 'file'} />
              <span className="review-name">{row.file.path}</span>
              <span className="muted small review-dir">{rowLabel(row)}</span>
            </button>
          </li>
        ))}
      </ul>
      {current && (
        <section className="review-file" aria-label={`Review of ${current.file.path}`}>
          <div className="review-file-actions">
            {current.file.editedSince && <span className="badge-neutral">edited since the turn</span>}
            <button
              type="button"
              disabled={current.isKept}
              onClick={() =>
                void act(keepHunks(sessionId, scope, current.file.root, current.file.path, current.whole ? [WHOLE] : current.pending.map((h) => h.key)))
              }
            >
              <Icon name="check" /> Keep file
            </button>
            <button
              type="button"
              onClick={() =>
                void act(rejectChange(sessionId, { scope, root: current.file.root, path: current.file.path, hunk: null, diskHash: current.file.diskHash }))
              }
            >
              <Icon name="x" /> Reject file
            </button>
          </div>
          {current.file.binary || current.file.tooLarge ? (
            <p className="muted">
              {current.file.binary ? 'A binary file' : 'Too large to show'}: keep it, or reject it to put back the checkpoint’s copy
              {current.file.oldText === null ? ' (it did not exist: rejecting deletes it)' : ''}.
            </p>
          ) : (
            <DiffBlock
              key={`${scope}:${current.file.path}:${current.file.diskHash}`}
              eager
              modelKey={`checkpoint:${scope}:${current.file.path}`}
              path={current.file.path}
              oldText={current.file.oldText}
              newText={current.file.newText ?? ''}
              deleted={current.file.newText === null}
            />
          )}
          {current.pending.length > 0 && (
            <ol className="review-hunks" aria-label="Changes in this file">
              {current.pending.map((hunk) => (
                <HunkRow
                  key={hunk.key}
                  hunk={hunk}
                  onKeep={() => void act(keepHunks(sessionId, scope, current.file.root, current.file.path, [hunk.key]))}
                  onReject={() =>
                    void act(
                      rejectChange(sessionId, { scope, root: current.file.root, path: current.file.path, hunk: hunk.key, diskHash: current.file.diskHash }),
                    )
                  }
                />
              ))}
            </ol>
          )}
        </section>
      )}
    </div>
  );
}

function HunkRow({ hunk, onKeep, onReject }: { hunk: LineHunk; onKeep: () => void; onReject: () => void }) {
  const where =
    hunk.newLines.length === 0
      ? `after line ${hunk.newStart}`
      : hunk.newLines.length === 1
        ? `line ${hunk.newStart + 1}`
        : `lines ${hunk.newStart + 1}–${hunk.newStart + hunk.newLines.length}`;
  const label = `Change at ${where}: −${hunk.oldLines.length} +${hunk.newLines.length}`;
  return (
    <li className="review-hunk" aria-label={label}>
      <div className="review-hunk-head">
        <span className="small">{label}</span>
        <button type="button" className="link-button" onClick={onKeep}>
          Keep
        </button>
        <button type="button" className="link-button" onClick={onReject}>
          Reject
        </button>
      </div>
      <pre className="review-hunk-text">
        {hunk.oldLines.slice(0, 6).map((line, i) => (
          <span key={`o${i}`} className="removed">
            −{line.endsWith('\n') ? line : `${line}\n`}
          </span>
        ))}
        {hunk.newLines.slice(0, 6).map((line, i) => (
          <span key={`n${i}`} className="added">
            +{line.endsWith('\n') ? line : `${line}\n`}
          </span>
        ))}
        {hunk.oldLines.length > 6 || hunk.newLines.length > 6 ? '…\n' : ''}
      </pre>
    </li>
  );
}

function rowLabel(row: { file: ReviewFile; isKept: boolean; pending: LineHunk[]; whole: boolean }): string {
  if (row.isKept) return 'kept';
  if (row.whole && row.file.status === 'modified') return row.file.binary ? 'binary, changed' : 'changed';
  const status =
    row.file.status === 'added' ? 'new' : row.file.status === 'deleted' ? 'deleted' : `${row.pending.length} change${row.pending.length === 1 ? '' : 's'}`;
  return row.file.editedSince ? `${status}, edited since` : status;
}
