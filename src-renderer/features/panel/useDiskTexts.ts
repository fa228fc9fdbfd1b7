import { useEffect, useMemo, useState } from 'react';
import { bridge } from '../../bridge';
import type { DiskTexts } from './changedFiles';

/**
 * The current text on disk of each changed file, read again whenever its number of changes
 * moves: the Review panel agrees with the disk (snippet diffs are settled by it). A file that
 * is gone reads as null; one that cannot be read stays unknown (the diffs as sent are shown).
 */
export function useDiskTexts(sessionId: string, files: readonly { path: string; changes: number }[]): DiskTexts {
  const [texts, setTexts] = useState<Record<string, { key: string; text: string | null }>>({});
  const wanted = files.map((file) => `${file.path}\u0000${file.changes}`).join('\u0001');
  useEffect(() => {
    let live = true;
    for (const entry of wanted ? wanted.split('\u0001') : []) {
      const [path] = entry.split('\u0000');
      if (texts[path]?.key === entry) continue;
      bridge
        .request('fs.readFile', { sessionId, path })
        .then((result) => (result.truncated ? undefined : result.text))
        .catch((error: Error) => (/ENOENT|no such file/i.test(error.message) ? null : undefined))
        .then((text) => {
          if (live && text !== undefined) setTexts((all) => ({ ...all, [path]: { key: entry, text } }));
        });
    }
    return () => {
      live = false;
    };
    // `texts` is read only to skip files already read for this change count.
  }, [sessionId, wanted]);
  return useMemo(() => Object.fromEntries(Object.entries(texts).map(([path, { text }]) => [path, text])), [texts]);
}
