import { create } from 'zustand';
import { createAppliedEvents } from './appliedEvents';
import { createAppSlice } from './slices/appSlice';
import { createRegistrySlice } from './slices/registrySlice';
import { createUiSlice, EMPTY_SESSION_UI } from './slices/uiSlice';
import type { SessionUi, Store } from './types';

/** The renderer's one store, built from slices; components select what they show from it. */
export const useStore = create<Store>()((...a) => ({
  ...createAppSlice(...a),
  ...createUiSlice(...a),
  ...createRegistrySlice(...a),
}));

/** Events the store applied (see appliedEvents.ts): terminals and notifications follow them. */
export const appliedEvents = createAppliedEvents();

/** The view state of one session (a stable empty object until something is set). */
export function useSessionUi<T>(sessionId: string, select: (ui: SessionUi) => T): T {
  return useStore((s) => select(s.sessionUi[sessionId] ?? EMPTY_SESSION_UI));
}

/** Runs a request and shows its error instead of throwing into React. */
export async function run<T>(work: Promise<T>): Promise<T | undefined> {
  try {
    return await work;
  } catch (error) {
    useStore.getState().showToast((error as Error).message);
    return undefined;
  }
}
