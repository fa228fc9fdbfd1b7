import { useEffect, useRef, useState } from 'react';
import type { WorktreeProbe } from '../../../src-shared/ipc/worktreeContract';
import { bridge } from '../../bridge';
import { logRenderer } from '../../log';
import './worktrees.css';

/** What the New session dialog starts with: a plain session, or one in a new worktree. */
export interface WorktreeChoice {
  enabled: boolean;
  branch: string;
  base: string;
}

export const NO_WORKTREE: WorktreeChoice = { enabled: false, branch: '', base: '' };

const UNAVAILABLE: WorktreeProbe = {
  available: false,
  reason: null,
  gitVersion: null,
  repoRoot: null,
  currentBranch: null,
  branches: [],
  suggestedBranch: null,
  folder: null,
};

/**
 * "Start in a new worktree" for the New session dialog: offered when the folder is inside a git
 * repository (and git is new enough), else shown disabled with the reason. The branch name is
 * suggested from the agent and editable; the base is the current branch unless another is picked.
 */
export function WorktreeOption({
  cwd,
  agentId,
  value,
  onChange,
}: {
  cwd: string;
  agentId: string;
  value: WorktreeChoice;
  onChange: (choice: WorktreeChoice) => void;
}) {
  const [probe, setProbe] = useState<WorktreeProbe | null>(null);
  // Read when an answer comes (the person may have typed meanwhile): a branch name they edited is kept.
  const latest = useRef({ value, onChange, suggested: '' });
  latest.current = { ...latest.current, value, onChange };
  useEffect(() => {
    if (!cwd) return;
    let current = true;
    // The folder is typed or browsed: ask once it settles, not on every keystroke.
    const timer = setTimeout(() => {
      bridge.request('worktree.probe', { cwd, agentId: agentId || undefined }).then(
        (answer) => {
          if (!current) return;
          setProbe(answer);
          const { value: now, suggested } = latest.current;
          const edited = now.branch !== '' && now.branch !== suggested;
          latest.current.suggested = answer.suggestedBranch ?? '';
          const branch = edited ? now.branch : (answer.suggestedBranch ?? '');
          latest.current.onChange(
            answer.available
              ? { ...now, branch, base: answer.currentBranch ?? answer.branches[0] ?? '' }
              : { ...NO_WORKTREE, branch: edited ? now.branch : '' },
          );
        },
        (error: Error) => {
          if (!current) return;
          logRenderer('debug', 'asking whether the folder can start a worktree session', error);
          setProbe({ ...UNAVAILABLE, reason: error.message });
          latest.current.onChange({ ...latest.current.value, enabled: false });
        },
      );
    }, 250);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [cwd, agentId]);

  const available = Boolean(probe?.available);
  return (
    <fieldset className="worktree-option">
      <label className="checkbox-label">
        <input
          type="checkbox"
          checked={value.enabled && available}
          disabled={!available}
          aria-describedby="worktree-option-reason"
          onChange={(event) => onChange({ ...value, enabled: event.target.checked })}
        />
        Start in a new worktree
      </label>
      <p id="worktree-option-reason" className="muted small">
        {probe === null
          ? 'Checking whether the folder is in a git repository…'
          : available
            ? `Its own branch and folder${probe.folder ? ` under ${probe.folder}` : ''}, so parallel sessions never step on each other.`
            : probe.reason}
      </p>
      {value.enabled && available && probe && (
        <div className="worktree-fields">
          <label>
            Branch name
            <input value={value.branch} spellCheck={false} onChange={(event) => onChange({ ...value, branch: event.target.value })} />
          </label>
          <label>
            Base branch
            <select value={value.base} onChange={(event) => onChange({ ...value, base: event.target.value })}>
              {probe.branches.map((branch) => (
                <option key={branch} value={branch}>
                  {branch}
                  {branch === probe.currentBranch ? ' (current)' : ''}
                </option>
              ))}
            </select>
          </label>
        </div>
      )}
    </fieldset>
  );
}
