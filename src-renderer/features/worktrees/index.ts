/** The worktree sessions feature's public surface (docs/WORKTREES.md). */
export { WorktreeBadge } from './WorktreeBadge';
export { WorktreeOption, NO_WORKTREE, type WorktreeChoice } from './WorktreeOption';
export { WorktreeReview } from './WorktreeReview';
export { OrphanWorktrees } from './OrphanWorktrees';
export { newWorktreeSession } from './actions';
