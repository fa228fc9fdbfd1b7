import { useEffect, useState } from 'react';
import { bridge } from '../../bridge';
import type { ChangedFile } from '../../../src-shared/session/changedFiles';
import type { ReviewFile, ReviewList } from '../../../src-shared/session/review';
import { useStore } from '../../store';

/** The latest list of each session, shown at once when the panel comes back (then asked again). */
const lists = new Map<string, ReviewList>();
/** While a session streams, its list is asked again at most this often. */
const REFRESH_MS = 500;

/**
 * The Review list, computed in main (`session.review`, issue 23): asked when the panel shows and
 * again when the session has moved past the list's `seq`, one request at a time.
 */
export function useReviewList(sessionId: string): ReviewList | undefined {
  const lastSeq = useStore((s) => s.sessions[sessionId]?.lastSeq ?? 0);
  // What was asked last, and at which seq of the page's copy: a new answer renders through it.
  const [asked, setAsked] = useState<{ sessionId: string; seq: number } | null>(null);
  const stale = asked?.sessionId !== sessionId || lastSeq > asked.seq;
  const again = asked?.sessionId === sessionId;
  useEffect(() => {
    if (!stale) return;
    let live = true;
    const timer = setTimeout(
      () => {
        const at = useStore.getState().sessions[sessionId]?.lastSeq ?? 0;
        bridge
          .request('session.review', { sessionId })
          .then((answer) => {
            lists.set(sessionId, answer);
            if (live) setAsked({ sessionId, seq: Math.max(at, answer.seq) });
          })
          .catch(() => live && setAsked({ sessionId, seq: at }));
      },
      again ? REFRESH_MS : 0,
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [sessionId, stale, again]);
  return lists.get(sessionId);
}

/** The texts of the file the person opened in the Review list (`session.reviewFile`), asked when its row changes. */
export function useReviewFile(sessionId: string, row: ReviewFile | undefined): ChangedFile | null | undefined {
  const key = row ? `${sessionId}\u0000${row.path}\u0000${row.changes}\u0000${row.deleted}\u0000${row.toolCallIds.length}` : '';
  const [texts, setTexts] = useState<{ key: string; file: ChangedFile | null } | null>(null);
  useEffect(() => {
    if (!row) return;
    let live = true;
    bridge
      .request('session.reviewFile', { sessionId, path: row.path })
      .then(({ file }) => live && setTexts({ key, file }))
      .catch(() => live && setTexts({ key, file: null }));
    return () => {
      live = false;
    };
    // The row's key says when its texts may have changed.
  }, [key]);
  // The texts of the row shown before stay until the new ones arrive (no flash while streaming).
  return texts && texts.key.startsWith(`${sessionId}\u0000${row?.path}\u0000`) ? texts.file : undefined;
}
