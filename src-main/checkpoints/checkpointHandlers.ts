import type { Handlers } from '../../src-shared/ipc/contract';
import type { CheckpointService, CheckpointSession } from './checkpointService';

type CheckpointRows = 'checkpoint.review' | 'checkpoint.keep' | 'checkpoint.reject' | 'checkpoint.preview' | 'checkpoint.restore';

/** The checkpoint rows of the handler table; `session` finds an open session (throws for an unknown id). */
export function checkpointHandlers(checkpoints: CheckpointService, session: (sessionId: string) => CheckpointSession): Pick<Handlers, CheckpointRows> {
  return {
    'checkpoint.review': (input) => checkpoints.review(session(input.sessionId), input.scope),
    'checkpoint.keep': async (input) => {
      checkpoints.keep(session(input.sessionId), input.scope, input.root, input.path, input.hunks);
      return { ok: true };
    },
    'checkpoint.reject': async ({ sessionId, ...input }) => {
      await checkpoints.reject(session(sessionId), input);
      return { ok: true };
    },
    'checkpoint.preview': async (input) => {
      // The snapshot taken for the preview stays in the shadow repository until pruned; only a restore records it.
      const { now: _now, ...preview } = await checkpoints.preview(session(input.sessionId), input.checkpointId);
      return preview;
    },
    'checkpoint.restore': (input) => checkpoints.restore(session(input.sessionId), input.checkpointId),
  };
}
