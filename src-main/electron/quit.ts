/** What quitting should do, given what the app is busy with (`AppCore.busyReasons()`). */
export type QuitDecision =
  | { kind: 'quit' }
  | {
      kind: 'confirm';
      message: string;
      detail: string;
      /** Button labels; index `QUIT_BUTTON` quits, the other cancels. */
      buttons: [string, string];
      defaultId: number;
      cancelId: number;
    };

export const QUIT_BUTTON = 0;

/**
 * Quit at once when nothing is running; otherwise ask, naming what would be interrupted.
 * Cancel is the default button, so a reflexive Enter does not kill running work.
 */
export function quitDecision(reasons: readonly string[]): QuitDecision {
  const listed = reasons.filter((reason) => reason.trim() !== '');
  if (listed.length === 0) return { kind: 'quit' };
  const shown = listed.slice(0, 8);
  const more = listed.length - shown.length;
  return {
    kind: 'confirm',
    message: listed.length === 1 ? 'Quit while work is in progress?' : `Quit while ${listed.length} things are in progress?`,
    detail: [...shown.map((reason) => `• ${reason}`), ...(more > 0 ? [`• …and ${more} more`] : []), '', 'Quitting stops every agent.'].join('\n'),
    buttons: ['Quit', 'Cancel'],
    defaultId: 1,
    cancelId: 1,
  };
}

/** Whether the answer to the confirmation (the clicked button's index) means quit. */
export function confirmsQuit(response: number): boolean {
  return response === QUIT_BUTTON;
}
