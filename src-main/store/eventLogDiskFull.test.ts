import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src-shared/session/events';
import { EventLog, type LogHealth, logIo, readEventLog } from './eventLog';

const realAppend = logIo.append;
afterEach(() => {
  logIo.append = realAppend;
});

let seq = 0;
const chunk = (text: string): SessionEvent =>
  ({
    sessionId: 's_disk',
    seq: ++seq,
    ts: 1,
    kind: 'message.chunk',
    role: 'agent',
    content: { type: 'text', text },
  }) as SessionEvent;

function enospc(): Error {
  return Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
}

/** The disk fills after `room` more bytes: a write gets what fits, then ENOSPC (as the kernel does). */
function fillDiskAfter(room: number): void {
  logIo.append = (fd, text) => {
    const bytes = Buffer.from(text);
    if (bytes.length <= room) {
      room -= bytes.length;
      return realAppend(fd, text);
    }
    appendFileSync(fd, bytes.subarray(0, room));
    room = 0;
    throw enospc();
  };
}

describe('a full disk', () => {
  it('never throws from append: holds events in memory, keeps what was saved intact, and writes the rest in order when space returns', async () => {
    seq = 0;
    const file = join(mkdtempSync(join(tmpdir(), 'acp-disk-')), 'sessions', 's_disk.jsonl');
    const health: LogHealth[] = [];
    const log = new EventLog(file, (h) => health.push(h), 60_000);
    log.append([chunk('saved one'), chunk('saved two')]);
    const saved = readFileSync(file, 'utf8');

    fillDiskAfter(30); // part of the next line fits: it must not stay behind as a torn line
    expect(() => log.append([chunk('held three')])).not.toThrow();
    expect(() => log.append([chunk('held four'), chunk('held five')])).not.toThrow();
    expect(log.saving).toBe(false);
    expect(health).toEqual([{ saving: false, error: 'the disk is full' }]);
    expect(readFileSync(file, 'utf8')).toBe(saved);

    logIo.append = realAppend; // space again
    log.append([chunk('six')]);
    expect(log.saving).toBe(true);
    expect(health).toEqual([
      { saving: false, error: 'the disk is full' },
      { saving: true, written: 4 },
    ]);
    const { events, skipped } = await readEventLog(file);
    expect(skipped).toBe(0);
    expect(events.map((event) => event.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    log.close();
  });

  it('retries by itself, so an idle session is saved once space returns', async () => {
    seq = 0;
    const file = join(mkdtempSync(join(tmpdir(), 'acp-disk-')), 's_disk.jsonl');
    const health: LogHealth[] = [];
    const log = new EventLog(file, (h) => health.push(h), 20);
    fillDiskAfter(0);
    log.append([chunk('a'), chunk('b')]);
    expect(health).toHaveLength(1);
    logIo.append = realAppend;
    const start = Date.now();
    while (log.saving === false && Date.now() - start < 2000) await new Promise((r) => setTimeout(r, 10));
    expect(health.at(-1)).toEqual({ saving: true, written: 2 });
    expect((await readEventLog(file)).events.map((event) => event.seq)).toEqual([1, 2]);
    log.close();
  });
});

/** A real full disk: a 64 KiB tmpfs (needs root and mount; skipped with the reason otherwise). */
function smallTmpfs(): { dir: string; unmount: () => void } | string {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return 'needs root on Linux to mount a tmpfs';
  const dir = mkdtempSync(join(tmpdir(), 'acp-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    return `mount -t tmpfs failed: ${String((error as Error).message).split('\n')[0]}`;
  }
  return {
    dir,
    unmount: () => {
      execFileSync('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const tmpfs = smallTmpfs();
if (typeof tmpfs === 'string') console.log(`[skip] real ENOSPC on a tmpfs: ${tmpfs}`);

describe.skipIf(typeof tmpfs === 'string')('a really full disk (tmpfs)', () => {
  it('keeps saved lines intact on ENOSPC and catches up when space is freed', async () => {
    const { dir, unmount } = tmpfs as Exclude<typeof tmpfs, string>;
    try {
      seq = 0;
      mkdirSync(join(dir, 'sessions'));
      const file = join(dir, 'sessions', 's_disk.jsonl');
      const health: LogHealth[] = [];
      const log = new EventLog(file, (h) => health.push(h), 60_000);
      log.append([chunk('before the disk filled')]);
      const saved = readFileSync(file, 'utf8');
      // Fill the rest of the file system.
      const filler = join(dir, 'filler');
      try {
        writeFileSync(filler, Buffer.alloc(128 * 1024));
      } catch {
        /* full now */
      }
      log.append([chunk('x'.repeat(8000)), chunk('y'.repeat(8000))]);
      expect(health).toEqual([{ saving: false, error: 'the disk is full' }]);
      expect(readFileSync(file, 'utf8')).toBe(saved);
      rmSync(filler);
      log.append([chunk('after')]);
      expect(health.at(-1)).toEqual({ saving: true, written: 3 });
      expect((await readEventLog(file)).events.map((event) => event.seq)).toEqual([1, 2, 3, 4]);
      log.close();
    } finally {
      unmount();
    }
  });
});
