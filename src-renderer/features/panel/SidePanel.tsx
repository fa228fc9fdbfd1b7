import { useMemo } from 'react';
import { useSessionUi, useStore, windowReportsChanges, windowTerminalCount, type PanelTab } from '../../store';
import { panelTerminals } from '../../../src-shared/session/windowTerminals';
import { Icon } from '../../ui/Icon';
import { CheckpointReview, useHasCheckpointChanges } from '../checkpoints';
import { DiffBlock } from '../diff/DiffBlock';
import { FileViewer } from '../diff/FileViewer';
import { PlanView } from '../plan/PlanView';
import { TerminalView } from '../terminal/TerminalView';
import { WorktreeReview } from '../worktrees';
import { hasReportedChanges } from '../../../src-shared/session/changedFilesMemo';
import { useReviewFile, useReviewList } from './useReview';
import './review.css';

const LABELS: Record<PanelTab, string> = { plan: 'Plan', terminals: 'Terminals', review: 'Review', file: 'File' };

/** Which side-panel tabs have something to show. */
export function usePanelTabs(sessionId: string): PanelTab[] {
  const hasPlan = useStore((s) => (s.sessions[sessionId]?.plan.length ?? 0) > 0);
  const hasTerminals = useStore((s) => Object.values(s.sessions[sessionId]?.terminals ?? {}).some((t) => !t.interactive));
  const hasChanges = useStore((s) => hasReportedChanges(s.sessions[sessionId]) || (Boolean(s.sessions[sessionId]) && windowReportsChanges(sessionId)));
  const hasFile = useSessionUi(sessionId, (ui) => ui.file !== null);
  // A worktree session always has a Review: the branch against its base (docs/WORKTREES.md).
  const hasWorktree = useStore((s) => Boolean(s.app?.sessions.find((summary) => summary.sessionId === sessionId)?.worktree));
  const hasCheckpointChanges = useHasCheckpointChanges(sessionId);
  return useMemo(() => {
    const tabs: PanelTab[] = [];
    if (hasPlan) tabs.push('plan');
    if (hasTerminals) tabs.push('terminals');
    if (hasChanges || hasWorktree || hasCheckpointChanges) tabs.push('review');
    if (hasFile) tabs.push('file');
    return tabs;
  }, [hasPlan, hasTerminals, hasChanges, hasWorktree, hasCheckpointChanges, hasFile]);
}

/** Plan, terminals, the review of changed files and the file viewer, beside the transcript. */
export function SidePanel({ sessionId, tabs }: { sessionId: string; tabs: PanelTab[] }) {
  const chosen = useSessionUi(sessionId, (ui) => ui.panelTab);
  const tab = chosen && tabs.includes(chosen) ? chosen : tabs[0];
  const patch = (p: Parameters<ReturnType<typeof useStore.getState>['patchSessionUi']>[1]) => useStore.getState().patchSessionUi(sessionId, p);
  if (!tab) return null;
  return (
    <aside className="side-panel" aria-label="Side panel">
      <div className="panel-tabs">
        <div role="tablist" aria-label="Side panel views">
          {tabs.map((t) => (
            <button
              key={t}
              type="button"
              role="tab"
              id={`panel-tab-${t}`}
              aria-selected={t === tab}
              aria-controls={`panel-${t}`}
              tabIndex={t === tab ? 0 : -1}
              // The tab itself shows the latest plan; a summary's "Show plan" picks its own.
              onClick={() => patch(t === 'plan' ? { panelTab: t, planEntryId: null } : { panelTab: t })}
              onKeyDown={(event) => {
                const i = tabs.indexOf(t);
                if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
                  event.preventDefault();
                  const next = tabs[(i + (event.key === 'ArrowRight' ? 1 : -1) + tabs.length) % tabs.length];
                  patch({ panelTab: next });
                  requestAnimationFrame(() => document.getElementById(`panel-tab-${next}`)?.focus());
                }
              }}
            >
              {LABELS[t]}
            </button>
          ))}
        </div>
        <button type="button" className="icon-button" aria-label="Close side panel" title="Close side panel" onClick={() => patch({ panelOpen: false })}>
          <Icon name="close" />
        </button>
      </div>
      <div className="panel-body" role="tabpanel" id={`panel-${tab}`} aria-labelledby={`panel-tab-${tab}`}>
        {tab === 'plan' && <PlanView sessionId={sessionId} />}
        {tab === 'terminals' && <TerminalsView sessionId={sessionId} />}
        {tab === 'review' && (
          <>
            <WorktreeReview sessionId={sessionId} />
            <Review sessionId={sessionId} />
          </>
        )}
        {tab === 'file' && <FileTab sessionId={sessionId} />}
      </div>
    </aside>
  );
}

/** The newest terminals and the running ones: a long session ran thousands, each an xterm here (issue 23). */
function TerminalsView({ sessionId }: { sessionId: string }) {
  const terminals = useStore((s) => s.sessions[sessionId]?.terminals);
  const list = useMemo(() => panelTerminals(terminals ?? {}), [terminals]);
  const all = useStore((s) => Object.values(s.sessions[sessionId]?.terminals ?? {}).filter((t) => !t.interactive).length);
  // Main's count is as of the window; terminals since then are in `all`.
  const earlier = Math.max(all, windowTerminalCount(sessionId)) > list.length;
  return (
    <div className="terminals-view">
      {earlier && <p className="muted small">Earlier terminals are shown with their tool calls in the transcript.</p>}
      {list.map((t) => (
        <TerminalView key={t.terminalId} sessionId={sessionId} terminalId={t.terminalId} rows={14} />
      ))}
    </div>
  );
}

/** From checkpoints when the session has them (every write seen, keep/reject); else the changes the agent reported. */
function Review({ sessionId }: { sessionId: string }) {
  const fromCheckpoints = useHasCheckpointChanges(sessionId);
  return fromCheckpoints ? <CheckpointReview sessionId={sessionId} /> : <ReviewView sessionId={sessionId} />;
}

function ReviewView({ sessionId }: { sessionId: string }) {
  // The list is computed in main; a file's texts come when it is shown (issue 23).
  const review = useReviewList(sessionId);
  const selected = useSessionUi(sessionId, (ui) => ui.reviewPath);
  const list = review?.files ?? [];
  const current = list.find((f) => f.path === selected) ?? list[0];
  const texts = useReviewFile(sessionId, current);
  return (
    <div className="review-view">
      <p className="muted small">{review ? `${list.length} file${list.length === 1 ? '' : 's'} changed in this session` : 'Loading the session’s changes…'}</p>
      <ul className="review-list" aria-label="Changed files">
        {list.map((file) => (
          <li key={file.path}>
            <button
              type="button"
              aria-current={file === current ? 'true' : undefined}
              className={file === current ? 'selected' : undefined}
              onClick={() => useStore.getState().patchSessionUi(sessionId, { reviewPath: file.path })}
            >
              <Icon name={file.deleted ? 'delete' : 'file'} />
              <span className="review-name">{basename(file.path)}</span>
              <span className="muted small review-dir">
                {file.deleted ? 'deleted' : file.created ? 'new' : `${file.changes} change${file.changes === 1 ? '' : 's'}`}
              </span>
            </button>
          </li>
        ))}
      </ul>
      {texts && (
        <DiffBlock
          key={texts.path}
          eager
          modelKey={`review:${texts.path}`}
          path={texts.path}
          oldText={texts.oldText}
          newText={texts.newText}
          deleted={texts.deleted}
        />
      )}
    </div>
  );
}

function FileTab({ sessionId }: { sessionId: string }) {
  const file = useSessionUi(sessionId, (ui) => ui.file);
  if (!file) return null;
  return <FileViewer sessionId={sessionId} path={file.path} line={file.line} />;
}

function basename(path: string): string {
  return path.split(/[\\/]/).pop() || path;
}
