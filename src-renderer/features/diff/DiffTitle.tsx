import { Icon } from '../../ui/Icon';
import { basename, dirname } from './staticDiff';

/** The start of a diff's head, alike for the static and the editor view: the file, its kind, the counts. */
export function DiffTitle({ path, label, stats }: { path: string; label: string | null; stats: { added: number; removed: number } | null }) {
  return (
    <>
      <Icon name="diff" />
      <span className="diff-path" title={path}>
        <strong>{basename(path)}</strong> <span className="muted">{dirname(path)}</span>
      </span>
      {label && <span className={`badge-neutral diff-kind diff-${label === 'deleted' ? 'deleted' : 'new'}`}>{label}</span>}
      {stats && (
        <span className="diff-stats" aria-label={`${stats.added} lines added, ${stats.removed} removed`}>
          <span className="added">+{stats.added}</span> <span className="removed">−{stats.removed}</span>
        </span>
      )}
    </>
  );
}
