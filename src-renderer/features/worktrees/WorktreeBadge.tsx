import { useStore } from '../../store';
import './worktrees.css';

/**
 * The session's branch and its base (`fixture/a ← main`), for the tab and the session header. On
 * the tab (`compact`) the branch is clipped first; the tab's own description names both.
 */
export function WorktreeBadge({ sessionId, compact = false }: { sessionId: string; compact?: boolean }) {
  const worktree = useStore((s) => s.app?.sessions.find((summary) => summary.sessionId === sessionId)?.worktree);
  if (!worktree) return null;
  const label = `Branch ${worktree.branch} from ${worktree.base}`;
  return (
    <span className={`worktree-badge${compact ? ' compact' : ''}`} title={label} aria-label={compact ? undefined : label}>
      <svg viewBox="0 0 24 24" width="12" height="12" aria-hidden="true" className="worktree-icon">
        <path
          d="M6 3v12M18 9a3 3 0 1 0 0-6a3 3 0 1 0 0 6zM6 21a3 3 0 1 0 0-6a3 3 0 1 0 0 6zM18 9c0 5-6 4-12 9"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        />
      </svg>
      <span className="worktree-branch">{worktree.branch}</span>
      <span aria-hidden="true">←</span>
      <span className="worktree-base">{worktree.base}</span>
    </span>
  );
}
