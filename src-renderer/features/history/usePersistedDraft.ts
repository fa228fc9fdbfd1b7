import { useEffect, useRef } from 'react';
import { loadDraft, saveDraft } from './actions';
import { logged } from '../../log';

const SAVE_DELAY_MS = 300;

/**
 * Keeps a composer's unsent text in main (`draft.get` / `draft.set`), so it survives a
 * restart or a crash. Loads the saved draft once on mount unless the person already typed,
 * saves changes after a short pause, and saves at once when the composer unmounts.
 */
export function usePersistedDraft(sessionId: string, text: string, setText: (text: string) => void): void {
  const loaded = useRef(false);
  const latest = useRef(text);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const saved = useRef<string | null>(null);
  const flush = useRef<(() => void) | null>(null);
  latest.current = text;

  useEffect(() => {
    loaded.current = false;
    saved.current = null;
    let live = true;
    void loadDraft(sessionId)
      .then(({ text: draft }) => {
        if (!live) return;
        saved.current = draft;
        // Never replace what the person typed while the draft was on its way.
        if (draft && !latest.current) setText(draft);
      })
      // The composer starts empty instead: typing is never blocked on a draft.
      .catch(logged(`Loading the draft of ${sessionId}`))
      .finally(() => {
        loaded.current = true;
      });
    const save = () => {
      if (pending.current) clearTimeout(pending.current);
      pending.current = null;
      if (!loaded.current || latest.current === saved.current) return;
      saved.current = latest.current;
      void saveDraft(sessionId, latest.current).catch(logged(`Saving the draft of ${sessionId}`));
    };
    flush.current = save;
    return () => {
      live = false;
      save();
      flush.current = null;
    };
    // Only the session matters: setText is a state setter, stable across renders.
  }, [sessionId]);

  useEffect(() => {
    if (!loaded.current || text === saved.current) return;
    if (pending.current) clearTimeout(pending.current);
    pending.current = setTimeout(() => flush.current?.(), text ? SAVE_DELAY_MS : 0);
  }, [sessionId, text]);
}
