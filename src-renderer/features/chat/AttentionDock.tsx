import { useAppStore } from '../../store/appStore';
import { EMPTY } from '../../store/empty';
import { Icon } from '../../ui/Icon';
import { ElicitationCard } from '../elicitation/ElicitationCard';

/**
 * What waits for the person, always in view above the composer: the agent's questions, and a
 * pointer to each permission request (whose card sits on its tool call in the transcript).
 */
export function AttentionDock({ sessionId }: { sessionId: string }) {
  const elicitations = useAppStore((s) => s.sessions[sessionId]?.elicitations ?? EMPTY);
  const permissions = useAppStore((s) => s.sessions[sessionId]?.permissions ?? EMPTY);
  if (!elicitations.length && !permissions.length) return null;
  return (
    <div className="attention-dock">
      {permissions.map((p) => (
        <div key={p.requestId} className="attention-permission" role="status">
          <Icon name="shield" />
          <span>
            Waiting for your permission: <strong>{String(p.toolCall.title ?? 'a tool call')}</strong>
          </span>
          <button
            type="button"
            className="link-button"
            onClick={() => {
              const card = document.querySelector<HTMLElement>(`.permission[aria-label="Permission requested: ${CSS.escape(String(p.toolCall.title ?? 'The agent asks for permission'))}"] button`);
              if (card) {
                card.scrollIntoView({ block: 'center' });
                card.focus();
              } else {
                document.querySelector('.transcript')?.scrollTo({ top: 1e9 });
              }
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
