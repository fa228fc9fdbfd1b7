import { useEffect, useRef, useState } from 'react';
import { useAppStore } from '../../store/appStore';
import { EntryView } from './EntryView';

/**
 * The transcript. Follows the stream while the person is at the bottom; scrolling up stops
 * following and shows "Jump to latest".
 */
export function Transcript({ sessionId }: { sessionId: string }) {
  const ids = useAppStore((s) => s.sessions[sessionId]?.entries.map((e) => e.id).join('\n') ?? '');
  const lastEntry = useAppStore((s) => s.sessions[sessionId]?.entries.at(-1));
  const scroller = useRef<HTMLDivElement>(null);
  const [following, setFollowing] = useState(true);
  const entryIds = ids ? ids.split('\n') : [];

  useEffect(() => {
    const element = scroller.current;
    if (element && following) element.scrollTop = element.scrollHeight;
  }, [ids, lastEntry, following]);

  const onScroll = () => {
    const element = scroller.current;
    if (!element) return;
    const atBottom = element.scrollHeight - element.scrollTop - element.clientHeight < 40;
    setFollowing(atBottom);
  };

  return (
    <div className="transcript-wrap">
      <div ref={scroller} className="transcript" role="log" aria-label="Transcript" aria-live="polite" onScroll={onScroll}>
        {entryIds.map((id, index) => (
          <EntryView key={id} sessionId={sessionId} index={index} />
        ))}
      </div>
      {!following && (
        <button
          type="button"
          className="jump-latest"
          onClick={() => {
            setFollowing(true);
            const element = scroller.current;
            if (element) element.scrollTop = element.scrollHeight;
          }}
        >
          Jump to latest
        </button>
      )}
    </div>
  );
}
