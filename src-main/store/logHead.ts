import { closeSync, openSync, readSync } from 'node:fs';
import { logDebug } from '../log/mainLog';

/** At most this much of a log is read for its first line (a `session.created` is a few hundred bytes). */
const HEAD_BYTES = 16 * 1024;

/**
 * The agent and title a session's log starts with (its `session.created`), read without folding
 * the log: what a tab shows before its session is read back when the history catalog has no
 * record of it. Nulls when the log is missing, unreadable or starts with anything else.
 */
export function logHead(logFile: string): { agentName: string | null; title: string | null } {
  const none = { agentName: null, title: null };
  let fd: number | null = null;
  try {
    fd = openSync(logFile, 'r');
    const buffer = Buffer.alloc(HEAD_BYTES);
    const read = readSync(fd, buffer, 0, HEAD_BYTES, 0);
    const end = buffer.subarray(0, read).indexOf(0x0a);
    const first = JSON.parse(buffer.toString('utf8', 0, end === -1 ? read : end)) as { kind?: unknown; agentName?: unknown; title?: unknown };
    if (first?.kind !== 'session.created') return none;
    return {
      agentName: typeof first.agentName === 'string' ? first.agentName : null,
      title: typeof first.title === 'string' && first.title ? first.title : null,
    };
  } catch (error) {
    // Missing, unreadable or not JSON: the restore itself says what is wrong, in the tab.
    logDebug(`Reading the first line of ${logFile} (the tab waits for its restore to name it)`, error);
    return none;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}
