// Checkpoints (issue 24): the Review panel from the session's checkpoints, restore, transcript marks.
export { CheckpointReview, useHasCheckpointChanges } from './CheckpointReview';
export { RestoreButton, RestoreMarker, TurnChanges } from './TranscriptMarks';
