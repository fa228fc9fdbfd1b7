import { useMemo } from 'react';
import { Icon } from '../../ui/Icon';
import { basename, dirname, staticDiff } from './staticDiff';

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
        <Icon name="diff" />
        <span className="diff-path" title={path}>
          <strong>{basename(path)}</strong> <span className="muted">{dirname(path)}</span>
        </span>
        {label && <span className={`badge-neutral diff-kind diff-${label === 'deleted' ? 'deleted' : 'new'}`}>{label}</span>}
        <span className="diff-stats" aria-label={`${view.added} lines added, ${view.removed} removed`}>
          <span className="added">+{view.added}</span> <span className="removed">−{view.removed}</span>
        </span>
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
