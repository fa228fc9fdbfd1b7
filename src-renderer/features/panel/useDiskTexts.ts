import { useEffect, useMemo, useRef, useState } from 'react';
import { bridge } from '../../bridge';
import type { DiskTexts } from './changedFiles';

/** What each session's Review read from disk, by path (with the change count it was read for). */
type ReadTexts = Record<string, { key: string; text: string | null }>;
const readTexts = new Map<string, ReadTexts>();

/**
 * The current text on disk of each changed file, read again whenever its number of changes
 * moves: the Review panel agrees with the disk (snippet diffs are settled by it). A file that
 * is gone reads as null; one that cannot be read stays unknown (the diffs as sent are shown).
 */
export function useDiskTexts(sessionId: string, files: readonly { path: string; changes: number }[]): DiskTexts {
  // Starts from what this session's Review read before (no flash, nothing recomputed when a tab is
  // shown again); each file is still read once per view, and a text that did not change changes nothing.
  const wanted = files.map((file) => `${file.path}\u0000${file.changes}`).join('\u0001');
  const [texts, setTexts] = useState<ReadTexts>(() => {
    const known = new Set(wanted.split('\u0001'));
    return Object.fromEntries(Object.entries(readTexts.get(sessionId) ?? {}).filter(([, read]) => known.has(read.key)));
  });
  const read = useRef(new Set<string>());
  useEffect(() => {
    let live = true;
    for (const entry of wanted ? wanted.split('\u0001') : []) {
      const [path] = entry.split('\u0000');
      if (read.current.has(entry)) continue;
      bridge
        .request('fs.readFile', { sessionId, path })
        .then((result) => (result.truncated ? undefined : result.text))
        .catch((error: Error) => (/ENOENT|no such file/i.test(error.message) ? null : undefined))
        .then((text) => {
          if (!live || text === undefined) return;
          read.current.add(entry);
          setTexts((all) => {
            if (all[path]?.key === entry && all[path].text === text) return all;
            const next = { ...all, [path]: { key: entry, text } };
            readTexts.set(sessionId, next);
            return next;
          });
        });
    }
    return () => {
      live = false;
    };
  }, [sessionId, wanted]);
  return useMemo(() => Object.fromEntries(Object.entries(texts).map(([path, { text }]) => [path, text])), [texts]);
}
