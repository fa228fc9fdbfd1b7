import { useState } from 'react';
import type { RestoreEntry } from '../../../src-shared/session/checkpointEvents';
import { useStore } from '../../store';
import { Icon } from '../../ui/Icon';
import { showReview } from './actions';
import { RestoreDialog } from './RestoreDialog';

/** On a message of the person: restore the session's files to the checkpoint taken before it. */
export function RestoreButton({ sessionId, turnId }: { sessionId: string; turnId: string }) {
  const checkpointId = useStore((s) => s.sessions[sessionId]?.checkpoints?.turns[turnId]?.before);
  const number = useStore((s) => {
    const entries = s.sessions[sessionId]?.entries ?? [];
    let count = 0;
    for (const entry of entries) {
      // An entry not loaded (paging, issue 23) may be a message: the number is unknown.
      if (entry === undefined) return 0;
      if (entry.kind === 'user') count++;
      if (entry.kind === 'user' && entry.turnId === turnId) return count;
    }
    return 0;
  });
  const running = useStore((s) => Boolean(s.sessions[sessionId]?.currentTurnId));
  const [open, setOpen] = useState(false);
  if (!checkpointId) return null;
  return (
    <>
      <button
        type="button"
        className="link-button muted restore-button"
        disabled={running}
        title={running ? 'Wait for the turn to end' : 'Restore the files to how they were before this message (files only)'}
        onClick={() => setOpen(true)}
      >
        <Icon name="retry" /> Restore files to before this message
      </button>
      {open && (
        <RestoreDialog
          sessionId={sessionId}
          checkpointId={checkpointId}
          title={number ? `Restore files to before message ${number}` : 'Restore files to before this message'}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}

/** After a turn's stop line: how many files the turn changed on disk, whoever wrote them; opens the Review panel at that turn. */
export function TurnChanges({ sessionId, index }: { sessionId: string; index: number }) {
  const turnId = useStore((s) => {
    const entries = s.sessions[sessionId]?.entries ?? [];
    for (let i = index; i >= 0; i--) {
      // Not loaded (paging, issue 23): its turn is not known here.
      if (entries[i] === undefined) return null;
      if (entries[i].kind === 'user') return (entries[i] as { turnId: string }).turnId;
    }
    return null;
  });
  const count = useStore((s) => (turnId ? s.sessions[sessionId]?.checkpoints?.turns[turnId]?.files?.length : undefined));
  if (!turnId || !count) return null;
  return (
    <div className="turn-changes">
      <button type="button" className="link-button" onClick={() => showReview(sessionId, turnId)}>
        <Icon name="diff" /> {count} file{count === 1 ? '' : 's'} changed
      </button>
    </div>
  );
}

/** Where files were restored: which, to before which message, and a way to undo it. */
export function RestoreMarker({ sessionId, entry }: { sessionId: string; entry: RestoreEntry }) {
  const [open, setOpen] = useState(false);
  const names = entry.files.map((file) => file.path);
  return (
    <div className="entry restore-marker" role="status">
      <Icon name="retry" />
      <span>
        {entry.turnId ? `Files restored to before message ${entry.label}` : `Restore of message ${entry.label} undone`}
        {names.length ? `: ${names.slice(0, 8).join(', ')}${names.length > 8 ? ` and ${names.length - 8} more` : ''}` : ': nothing differed'}
        <span className="muted"> (files only; the conversation was not rewound)</span>
      </span>
      <button type="button" className="link-button" onClick={() => setOpen(true)}>
        Undo this restore
      </button>
      {open && <RestoreDialog sessionId={sessionId} checkpointId={entry.undoCheckpointId} title="Undo this restore" onClose={() => setOpen(false)} />}
    </div>
  );
}
