import { createContext, useContext } from 'react';

/**
 * Whether the session view around a component is the one on screen. Hidden views stay mounted
 * (`features/chat/SessionViews.tsx`), so what a component does "when it appears" (take the focus, open a modal
 * dialog) depends on this rather than on mounting.
 */
export const ViewShown = createContext(true);

export function useViewShown(): boolean {
  return useContext(ViewShown);
}
