import { useCallback, useEffect, useRef, useState } from 'react';
import type { WorktreeMergeResult, WorktreeStatus } from '../../../src-shared/ipc/worktreeContract';
import { useStore } from '../../store';
import { commitWorktree, discardWorktree, keepWorktree, mergeWorktree, openWorktree, worktreeStatus } from './actions';
import { DiscardDialog } from './DiscardDialog';
import './worktrees.css';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const MAX_DIFF_LINES = 4000;

/**
 * The Review panel's part for a worktree session: the branch against its base (commits and
 * uncommitted changes, the whole diff) and the finishing actions: Commit, Merge into base,
 * Open folder, Discard, Keep. Refreshed whenever a turn ends.
 */
export function WorktreeReview({ sessionId }: { sessionId: string }) {
  const worktree = useStore((s) => s.app?.sessions.find((summary) => summary.sessionId === sessionId)?.worktree);
  const title = useStore((s) => s.sessions[sessionId]?.title);
  const agentName = useStore((s) => s.sessions[sessionId]?.agentName);
  const running = useStore((s) => s.sessions[sessionId]?.status === 'running');
  const [status, setStatus] = useState<WorktreeStatus | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [merge, setMerge] = useState<WorktreeMergeResult | null>(null);
  const [commitMessage, setCommitMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const live = useRef(true);
  useEffect(() => () => void (live.current = false), []);

  const refresh = useCallback(async () => {
    const answer = await worktreeStatus(sessionId);
    if (live.current && answer) setStatus(answer);
  }, [sessionId]);

  useEffect(() => {
    if (worktree && !running) void refresh();
  }, [worktree, running, refresh]);

  if (!worktree) return null;
  const act = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } finally {
      if (live.current) setBusy(false);
    }
    if (live.current) await refresh();
  };

  const defaultMessage = title || `Changes from the ${agentName ?? 'agent'} session`;
  const uncommitted = status?.uncommitted ?? [];
  const commits = status?.commits ?? [];
  const ahead = status?.ahead ?? 0;
  const baseBlocked = status?.baseDirty ? `${worktree.base} is checked out in ${status.baseCheckedOutIn} with uncommitted changes there.` : null;

  return (
    <section className="worktree-review" aria-label="Worktree">
      <h2 className="worktree-title">
        Branch <code>{worktree.branch}</code> → <code>{worktree.base}</code>
      </h2>
      {status === null ? (
        <p className="muted small" role="status">
          Reading the branch…
        </p>
      ) : (
        <>
          <p className="small" aria-label="Branch against its base">
            {plural(ahead, 'commit')} not in {worktree.base} · {status.behind} behind · {plural(uncommitted.length, 'uncommitted change')}
          </p>
          {!status.exists && <p className="banner banner-warning">The worktree folder {status.info.path} is gone; only Discard is left.</p>}
          {status.info.kept && <p className="muted small">Kept: the branch and its worktree stay as they are.</p>}
          {commits.length > 0 && (
            <ul className="worktree-list" aria-label="Commits on the branch">
              {commits.map((commit) => (
                <li key={commit.sha}>
                  <code>{commit.sha.slice(0, 8)}</code> {commit.subject}
                </li>
              ))}
            </ul>
          )}
          {uncommitted.length > 0 && (
            <ul className="worktree-list" aria-label="Uncommitted changes">
              {uncommitted.map((change) => (
                <li key={change.path}>
                  <code className="worktree-code">{change.status === '??' ? 'new' : change.status.trim()}</code> {change.path}
                </li>
              ))}
            </ul>
          )}
          {status.diff && (
            <details className="worktree-diff-box">
              <summary>Diff against {worktree.base}</summary>
              <DiffText text={status.diff} truncated={status.diffTruncated} />
            </details>
          )}
          {status.exists && (
            <form
              className="worktree-commit"
              onSubmit={(event) => {
                event.preventDefault();
                void act(async () => {
                  const done = await commitWorktree(sessionId, commitMessage ?? defaultMessage);
                  if (done && live.current) {
                    setMessage(`Committed ${done.sha.slice(0, 8)} on ${worktree.branch}.`);
                    setMerge(null);
                    setCommitMessage(null);
                  }
                });
              }}
            >
              <label>
                Commit message
                <textarea rows={2} value={commitMessage ?? defaultMessage} onChange={(event) => setCommitMessage(event.target.value)} />
              </label>
              <button type="submit" disabled={busy || running || uncommitted.length === 0 || !(commitMessage ?? defaultMessage).trim()}>
                Commit
              </button>
            </form>
          )}
          <div className="worktree-actions">
            <button
              type="button"
              className="primary"
              disabled={busy || running || uncommitted.length > 0 || ahead === 0 || Boolean(baseBlocked)}
              title={uncommitted.length > 0 ? 'Commit the changes first' : (baseBlocked ?? undefined)}
              onClick={() =>
                void act(async () => {
                  const result = await mergeWorktree(sessionId);
                  if (result && live.current) {
                    setMerge(result);
                    setMessage(null);
                  }
                })
              }
            >
              Merge into {worktree.base}
            </button>
            <button type="button" disabled={busy || !status.exists} onClick={() => void openFolder(sessionId, setMessage)}>
              Open folder
            </button>
            <button type="button" className="danger" disabled={busy} onClick={() => setConfirming(true)}>
              Discard…
            </button>
            {!status.info.kept && (
              <button type="button" disabled={busy} onClick={() => void act(async () => void (await keepWorktree(sessionId)))}>
                Keep
              </button>
            )}
          </div>
          {baseBlocked && <p className="muted small">Merging is off: {baseBlocked} Commit or stash them there first.</p>}
          {message && (
            <p role="status" className="worktree-message">
              {message}
            </p>
          )}
          {merge && merge.outcome !== 'conflict' && (
            <p role="status" className="worktree-message worktree-merged">
              {merge.message}
            </p>
          )}
          {merge?.outcome === 'conflict' && (
            <div role="alert" className="worktree-conflict">
              <strong>Conflict: nothing was merged.</strong> {merge.message}
              <ul aria-label="Conflicting files">
                {merge.conflicts.map((file) => (
                  <li key={file}>
                    <code>{file}</code>
                  </li>
                ))}
              </ul>
            </div>
          )}
          {confirming && (
            <DiscardDialog
              what={`the worktree ${status.info.path} and the branch ${worktree.branch}`}
              files={uncommitted.map((c) => c.path)}
              commits={commits}
              onCancel={() => setConfirming(false)}
              onConfirm={() => {
                setConfirming(false);
                void act(async () => void (await discardWorktree(sessionId, { files: uncommitted.map((c) => c.path), commits: commits.map((c) => c.sha) })));
              }}
            />
          )}
        </>
      )}
    </section>
  );
}

async function openFolder(sessionId: string, say: (message: string) => void): Promise<void> {
  const answer = await openWorktree(sessionId);
  // The browser host cannot open folders on the machine: it shows where the worktree is.
  if (answer && !answer.opened) say(`The worktree is at ${answer.path}`);
}

/** A git patch, lines coloured by their first character. */
function DiffText({ text, truncated }: { text: string; truncated: boolean }) {
  const lines = text.split('\n');
  const shown = lines.slice(0, MAX_DIFF_LINES);
  return (
    <pre className="worktree-diff" aria-label="Diff">
      {shown.map((line, index) => (
        <span
          key={index}
          className={
            line.startsWith('+') && !line.startsWith('+++')
              ? 'add'
              : line.startsWith('-') && !line.startsWith('---')
                ? 'del'
                : line.startsWith('@@')
                  ? 'hunk'
                  : undefined
          }
        >
          {line}
          {'\n'}
        </span>
      ))}
      {(truncated || lines.length > MAX_DIFF_LINES) && <span className="muted">… the diff goes on (open the folder to see all of it)</span>}
    </pre>
  );
}
