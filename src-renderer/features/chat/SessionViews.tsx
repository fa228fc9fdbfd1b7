import { memo, useLayoutEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { NO_TABS, useStore } from '../../store';
import { keepViews } from './keptViews';
import { SessionView } from './SessionView';
import { ViewShown } from '../../ui/viewShown';

/**
 * The open sessions' views: the one shown, and the last few shown (`keptViews.ts`) kept mounted
 * but out of the document, so a tab switch attaches a view instead of building one (issue 23):
 * its rows, Review panel diff editor, terminals, opened diffs and scroll positions stay as they
 * were (the composer takes the focus, as when a view was built: `useViewShown`). A hidden view is not in the document at all (not merely `display: none`): it is out
 * of the accessibility tree, matches no selector, and its layout costs nothing.
 *
 * `shown` is null while another page (history, settings) or no session is shown.
 */
export function SessionViews({ shown }: { shown: string | null }) {
  const open = useStore((s) => s.app?.tabs.open ?? NO_TABS.open);
  const [kept, setKept] = useState<readonly string[]>([]);
  const next = keepViews(kept, shown, open);
  if (next !== kept) setKept(next);
  // In state, not a ref: the views attach themselves to it in their layout effects, which run
  // before a parent's ref is set.
  const [slot, setSlot] = useState<HTMLDivElement | null>(null);
  return (
    <div ref={setSlot} className="session-slot">
      {slot && next.map((sessionId) => <KeptView key={sessionId} sessionId={sessionId} shown={sessionId === shown} slot={slot} />)}
    </div>
  );
}

/**
 * A view re-renders when its own store slices change, not because a switch re-rendered the list
 * of views: a switch changes only which view is shown (the `ViewShown` context's consumers).
 */
const KeptSessionView = memo(SessionView);

/** One session's view, rendered into its own element, which is in the slot only while shown. */
function KeptView({ sessionId, shown, slot }: { sessionId: string; shown: boolean; slot: HTMLElement }) {
  const [container] = useState(() => {
    const element = document.createElement('div');
    element.className = 'session-slot';
    return element;
  });
  return createPortal(
    <>
      {/* First: its layout effect attaches the view before the view's own effects measure it. */}
      <Attach container={container} slot={slot} shown={shown} />
      <ViewShown.Provider value={shown}>
        <KeptSessionView sessionId={sessionId} />
      </ViewShown.Provider>
    </>,
    container,
  );
}

/** Puts `container` in `slot` while shown, and its scroll offsets back with it. */
function Attach({ container, slot, shown }: { container: HTMLElement; slot: HTMLElement; shown: boolean }) {
  const [scrolled] = useState(() => followScrollOffsets(container));
  useLayoutEffect(() => {
    if (!shown) return;
    slot.appendChild(container);
    // An element leaves its scroll offsets behind when it leaves the document: put them back
    // before the browser paints (the transcript's position comes back exactly as left).
    for (const [element, [top, left]] of scrolled) {
      if (!container.contains(element)) {
        scrolled.delete(element);
        continue;
      }
      element.scrollTop = top;
      element.scrollLeft = left;
    }
    return () => void container.remove();
  }, [shown, container, slot, scrolled]);
  return null;
}

/**
 * The scroll offsets of every element under `root` that was scrolled, kept as they change (a
 * scroll event is read where layout is fresh). Reading them when the view is detached would
 * force a layout of the whole outgoing view in the middle of the switch.
 */
function followScrollOffsets(root: HTMLElement): Map<Element, [top: number, left: number]> {
  const offsets = new Map<Element, [number, number]>();
  root.addEventListener(
    'scroll',
    (event) => {
      // A detached element reads 0: what it showed last is what comes back.
      if (!root.isConnected || !(event.target instanceof Element)) return;
      offsets.set(event.target, [event.target.scrollTop, event.target.scrollLeft]);
    },
    { capture: true, passive: true },
  );
  return offsets;
}
