import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionState } from '../../src-shared/session/state';
import { paintFile } from '../store/firstPaintFile';
import { makeCore } from '../testing/coreHarness';
import type { AppCore } from './appCore';
import { firstPaintHandlers } from './firstPaintHandlers';

const cores: AppCore[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.dispose()));
});

const INSETS = { left: 0, top: 0, right: 0, bottom: 0 };

describe('session.firstPaint', () => {
  it('saves the rows only while main’s fold of the session is still at the seq the page rendered', async () => {
    const log = join(mkdtempSync(join(tmpdir(), 'acp-first-paint-')), 's_one.jsonl');
    writeFileSync(log, `${JSON.stringify({ kind: 'notice', sessionId: 's_one', seq: 7, ts: 70 })}\n`);
    let lastSeq = 8;
    const handle = firstPaintHandlers({ current: () => ({ lastSeq }) as SessionState, logFile: () => log }, dirname(log), { defaultCwd: '/work' })[
      'session.firstPaint'
    ];
    const input = { sessionId: 's_one', seq: 7, html: '<div class="row">Newest</div>', insets: INSETS, theme: 'light' as const };
    // Main has folded an event the page had not rendered yet (and the log may not have it yet).
    expect(await handle(input)).toEqual({ saved: false });
    expect(existsSync(paintFile(log))).toBe(false);
    lastSeq = 7;
    expect(await handle(input)).toEqual({ saved: true });
    expect(existsSync(paintFile(log))).toBe(true);
  });

  it('goes with its session when the session is deleted: nothing of it stays on disk', async () => {
    const h = makeCore();
    cores.push(h.core);
    const sessionId = await h.newSession();
    await h.prompt(sessionId, 'the private ocelot');
    const log = h.core.sessions.logFile(sessionId);
    const save = () =>
      h.core.handlers['session.firstPaint']({
        sessionId,
        seq: h.core.sessions.current(sessionId).lastSeq,
        html: '<div class="row">the private ocelot</div>',
        insets: INSETS,
        theme: 'light',
      });
    // The log is written a moment after main folds an event: asked again until it is.
    for (let tries = 0; !(await save()).saved; tries++) {
      if (tries === 100) throw new Error('The first paint was never saved');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(existsSync(paintFile(log))).toBe(true);
    await h.core.handlers['history.delete']({ sessionId, alsoOnAgent: false });
    expect(existsSync(log)).toBe(false);
    expect(existsSync(paintFile(log))).toBe(false);
  });
});
