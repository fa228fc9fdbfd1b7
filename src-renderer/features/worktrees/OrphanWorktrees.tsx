import { useEffect, useState } from 'react';
import type { OrphanWorktree } from '../../../src-shared/ipc/worktreeContract';
import { useStore } from '../../store';
import { cleanupOrphan, ignoreOrphan, listOrphans } from './actions';
import { DiscardDialog } from './DiscardDialog';
import './worktrees.css';

/**
 * At start: worktrees under the app's folder whose session is gone, each offered for clean-up
 * (after a confirmation naming what is lost) or to be left alone for good.
 */
export function OrphanWorktrees() {
  const connected = useStore((s) => s.connection === 'open');
  const [orphans, setOrphans] = useState<OrphanWorktree[]>([]);
  const [confirming, setConfirming] = useState<OrphanWorktree | null>(null);

  useEffect(() => {
    if (!connected) return;
    let current = true;
    void listOrphans().then((answer) => {
      if (current && answer) setOrphans(answer.orphans);
    });
    return () => {
      current = false;
    };
  }, [connected]);

  if (!orphans.length) return null;
  const drop = (path: string) => setOrphans((list) => list.filter((o) => o.path !== path));
  return (
    <div role="region" aria-label="Leftover worktrees" className="banner banner-info worktree-orphans">
      <p>{orphans.length === 1 ? 'A worktree has' : `${orphans.length} worktrees have`} no session any more. Remove what you no longer need:</p>
      <ul>
        {orphans.map((orphan) => (
          <li key={orphan.path}>
            <span>
              <code>{orphan.branch ?? orphan.path}</code> <span className="muted small">{orphan.path}</span> — {orphan.reason}
            </span>
            <span className="worktree-actions">
              <button type="button" className="danger" onClick={() => setConfirming(orphan)} aria-label={`Remove ${orphan.branch ?? orphan.path}…`}>
                Remove…
              </button>
              <button
                type="button"
                aria-label={`Keep ${orphan.branch ?? orphan.path}`}
                onClick={() => {
                  drop(orphan.path);
                  void ignoreOrphan(orphan.path);
                }}
              >
                Keep
              </button>
            </span>
          </li>
        ))}
      </ul>
      {confirming && (
        <DiscardDialog
          what={`the worktree ${confirming.path}${confirming.branch ? ` and the branch ${confirming.branch}` : ''}`}
          files={confirming.uncommitted.map((c) => c.path)}
          commits={confirming.commits}
          onCancel={() => setConfirming(null)}
          onConfirm={() => {
            const orphan = confirming;
            setConfirming(null);
            void cleanupOrphan(orphan.path, { files: orphan.uncommitted.map((c) => c.path), commits: orphan.commits.map((c) => c.sha) }).then((done) => {
              if (done) drop(orphan.path);
            });
          }}
        />
      )}
    </div>
  );
}
