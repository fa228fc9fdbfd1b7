import { useMemo } from 'react';
import { DiffTitle } from './DiffTitle';
import { staticDiff } from './staticDiff';

/**
 * A diff as plain lines (`staticDiff`): what a transcript row shows until the person opens the
 * editor. Mounting a Monaco diff editor per visible row was about half of scrolling time.
 */
export function StaticDiff({
  path,
  oldText,
  newText,
  label,
  onOpen,
}: {
  path: string;
  oldText: string | null;
  newText: string;
  label: string | null;
  onOpen: () => void;
}) {
  const view = useMemo(() => staticDiff(oldText, newText), [oldText, newText]);
  return (
    <div className="diff-block" role="group" aria-label={`Diff of ${path}`}>
      <div className="diff-head">
        <DiffTitle path={path} label={label} stats={view} />
        <button type="button" className="link-button" onClick={onOpen}>
          Open in editor
        </button>
      </div>
      <div className="diff-static" aria-label="Changed lines">
        {view.lines.map((line, i) =>
          'count' in line ? (
            <div key={i} className="gap">
              {line.count} {line.kind === 'gap' ? 'unchanged' : 'more'} line{line.count === 1 ? '' : 's'}
            </div>
          ) : (
            <div key={i} className={line.kind}>
              {line.text || ' '}
            </div>
          ),
        )}
      </div>
    </div>
  );
}
