import type { Dialect } from './dialect';
import { v1 } from './v1';
import { v2 } from './v2';

export type { AgentProfile } from './profile';
export type { Dialect, DecodedPermission, DecodedSession, PromptOutcome, UpdateDecoder } from './dialect';
export { v1, v2 };

export function dialectFor(version: 1 | 2): Dialect {
  return version === 2 ? v2 : v1;
}
