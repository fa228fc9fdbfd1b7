import { bridge } from '../../bridge';
import { useStore } from '../../store';

/** The checkpoint rows of the contract, as the checkpoint views call them. */
export const reviewFiles = (sessionId: string, scope: string) => bridge.request('checkpoint.review', { sessionId, scope });
export const keepHunks = (sessionId: string, scope: string, root: string, path: string, hunks: string[]) =>
  bridge.request('checkpoint.keep', { sessionId, scope, root, path, hunks });
export const rejectChange = (sessionId: string, input: { scope: string; root: string; path: string; hunk: string | null; diskHash: string }) =>
  bridge.request('checkpoint.reject', { sessionId, ...input });
export const previewRestore = (sessionId: string, checkpointId: string) => bridge.request('checkpoint.preview', { sessionId, checkpointId });
export const restoreFiles = (sessionId: string, checkpointId: string) => bridge.request('checkpoint.restore', { sessionId, checkpointId });

/** Opens the Review tab of the side panel at one turn (or the whole session). */
export function showReview(sessionId: string, scope: string): void {
  useStore.getState().patchSessionUi(sessionId, { panelTab: 'review', panelOpen: true, reviewScope: scope, reviewPath: null });
}
