import { EMPTY, ensureEntries, useStore } from '../../store';
import { AgentText } from '../../ui/AgentText';
import { Icon } from '../../ui/Icon';
import { ElicitationCard } from '../elicitation/ElicitationCard';

/**
 * What waits for the person, always in view above the composer: the agent's questions, and a
 * pointer to each permission request (whose card sits on its tool call in the transcript).
 */
export function AttentionDock({ sessionId }: { sessionId: string }) {
  const elicitations = useStore((s) => s.sessions[sessionId]?.elicitations ?? EMPTY);
  const permissions = useStore((s) => s.sessions[sessionId]?.permissions ?? EMPTY);
  if (!elicitations.length && !permissions.length) return null;
  return (
    <div className="attention-dock">
      {permissions.map((p) => (
        <div key={p.requestId} className="attention-permission" role="status">
          <Icon name="shield" />
          <span>
            Waiting for your permission:{' '}
            <strong>
              <AgentText text={p.tool.title || 'a tool call'} />
            </strong>
          </span>
          <button
            type="button"
            className="link-button"
            onClick={async () => {
              // Bring the tool call into view (it may be scrolled out of the virtualized list, or not loaded), then focus its first option.
              const index = useStore.getState().sessions[sessionId]?.toolIndex[p.toolCallId];
              if (index !== undefined) await ensureEntries(sessionId, index, index + 1);
              const state = useStore.getState().sessions[sessionId];
              const entry = index !== undefined ? state?.entries[index] : undefined;
              if (entry) useStore.getState().setFocusEntry({ sessionId, entryId: entry.id });
              setTimeout(() => {
                const row = entry && document.querySelector<HTMLElement>(`[data-entry-id="${CSS.escape(entry.id)}"]`);
                row?.querySelector<HTMLButtonElement>('.permission-options button')?.focus();
              }, 120);
            }}
          >
            Review
          </button>
        </div>
      ))}
      {elicitations.map((e) => (
        <ElicitationCard key={e.requestId} sessionId={sessionId} elicitation={e} />
      ))}
    </div>
  );
}
