import { useEffect, useRef, useState } from 'react';
import { EMPTY, useStore } from '../../store';
import { NO_WORKTREE, newWorktreeSession, WorktreeOption, type WorktreeChoice } from '../worktrees';
import { listFolder, newSession } from './actions';

/** Choose an agent and a workspace folder, then start a session. */
export function NewSessionDialog({ agentId, onClose }: { agentId: string | null; onClose: () => void }) {
  const allAgents = useStore((s) => s.app?.agents ?? EMPTY);
  const agents = allAgents.filter((a) => a.runnable);
  const defaultCwd = useStore((s) => s.app?.defaultCwd ?? '');
  const [agent, setAgent] = useState(agentId ?? agents[0]?.id ?? '');
  const [cwd, setCwd] = useState(defaultCwd);
  const [listing, setListing] = useState<{ path: string; parent: string | null; entries: { name: string; dir: boolean }[] } | null>(null);
  const [busy, setBusy] = useState(false);
  const [worktree, setWorktree] = useState<WorktreeChoice>(NO_WORKTREE);
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);

  const browse = async (path?: string) => {
    const result = await listFolder(path);
    if (result) {
      setListing(result);
      setCwd(result.path);
    }
  };

  const start = async () => {
    if (!agent || !cwd) return;
    setBusy(true);
    const result = worktree.enabled ? await newWorktreeSession(agent, cwd, worktree.branch.trim(), worktree.base) : await newSession(agent, cwd);
    setBusy(false);
    if (result) {
      useStore.getState().setView('session');
      onClose();
    }
  };

  return (
    <dialog ref={dialog} className="dialog" aria-labelledby="new-session-title" onClose={onClose}>
      <form
        method="dialog"
        onSubmit={(event) => {
          event.preventDefault();
          void start();
        }}
      >
        <h2 id="new-session-title">New session</h2>
        <label>
          Agent
          <select value={agent} onChange={(e) => setAgent(e.target.value)}>
            {agents.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </label>
        {agents.length === 0 && <p className="muted">No agent can be started yet: add a custom agent to settings.json or install one.</p>}
        <label>
          Workspace folder
          <input value={cwd} onChange={(e) => setCwd(e.target.value)} spellCheck={false} />
        </label>
        <button type="button" onClick={() => void browse(cwd)}>
          Browse…
        </button>
        {listing && (
          <div className="folder-browser" role="group" aria-label="Folders">
            {listing.parent && (
              <button type="button" onClick={() => void browse(listing.parent!)}>
                ↑ Parent folder
              </button>
            )}
            {listing.entries
              .filter((entry) => entry.dir)
              .map((entry) => (
                <button key={entry.name} type="button" onClick={() => void browse(`${listing.path}/${entry.name}`)}>
                  📁 {entry.name}
                </button>
              ))}
          </div>
        )}
        <WorktreeOption cwd={cwd} agentId={agent} value={worktree} onChange={setWorktree} />
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={busy || !agent || !cwd || (worktree.enabled && (!worktree.branch.trim() || !worktree.base))}>
            Start
          </button>
        </div>
      </form>
    </dialog>
  );
}
