import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHost } from './fixtures/host';
import { expect, FIXTURE, seedSession, shot, test, transcript } from './ui-support';

test('a 5,000-entry session: virtualized (few DOM rows) and scrolled end to end; frame times printed', async ({ page, problems }) => {
  test.setTimeout(120_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'acp-e2e-bench-'));
  const workspace = mkdtempSync(join(tmpdir(), 'acp-e2e-ws-'));
  const bodies: Record<string, unknown>[] = [];
  let entries = 0;
  for (let turn = 0; entries < 5000; turn++) {
    const turnId = `t${turn}`;
    bodies.push({ kind: 'turn.started', turnId, prompt: [{ type: 'text', text: `Question ${turn}: how does part ${turn} work?` }] });
    const code = turn % 3 === 0 ? `\n\n\`\`\`ts\nexport function part${turn}(x: number) {\n  return x * ${turn};\n}\n\`\`\`\n` : '';
    bodies.push({
      kind: 'acp.update',
      update: {
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'text', text: `Answer ${turn}. ${'Some **Markdown** text with a [link](https://example.com). '.repeat(1 + (turn % 4))}${code}` },
      },
    });
    if (turn % 5 === 0) {
      bodies.push({
        kind: 'acp.update',
        update: {
          sessionUpdate: 'tool_call',
          toolCallId: `call${turn}`,
          title: `Read file ${turn}`,
          kind: 'read',
          status: 'completed',
          content: [{ type: 'content', content: { type: 'text', text: `contents ${turn}` } }],
        },
      });
      entries++;
    }
    bodies.push({ kind: 'turn.ended', turnId, stopReason: 'end_turn' });
    entries += 3;
  }
  seedSession(dataDir, 's_bench', workspace, bodies);
  const host = await startHost({ dataDir, workspace, settings: { agents: [FIXTURE] } });
  try {
    await page.goto(host.url);
    const log = transcript(page);
    await expect(log.getByText(/^Answer \d+\./).last()).toBeVisible({ timeout: 30_000 });
    const total = Number(await log.locator('.transcript-inner').getAttribute('data-rows-total'));
    expect(total).toBeGreaterThanOrEqual(5000);
    const rowsAtBottom = await log.locator('.row').count();
    console.log(`entries: ${total}, rows in the DOM at the bottom: ${rowsAtBottom}`);
    expect(rowsAtBottom).toBeLessThan(100);

    // Scroll from the bottom towards the top with the wheel, measuring frame times in the page.
    await page.evaluate(() => {
      const w = window as unknown as { frames: number[]; running: boolean };
      w.frames = [];
      w.running = true;
      let last = performance.now();
      const tick = (now: number) => {
        w.frames.push(now - last);
        last = now;
        if (w.running) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    await log.hover();
    const maxRows: number[] = [];
    for (let i = 0; i < 60; i++) {
      await page.mouse.wheel(0, -1500);
      await page.waitForTimeout(16);
      if (i % 10 === 0) maxRows.push(await log.locator('.row').count());
    }
    // Jump far: to the very top, then the middle.
    await log.evaluate((el) => (el.scrollTop = 0));
    await expect(log.getByText('Question 0: how does part 0 work?')).toBeVisible();
    await log.evaluate((el) => (el.scrollTop = el.scrollHeight / 2));
    await page.waitForTimeout(200);
    maxRows.push(await log.locator('.row').count());
    const frames = await page.evaluate(() => {
      const w = window as unknown as { frames: number[]; running: boolean };
      w.running = false;
      return w.frames.slice(1);
    });
    const sorted = [...frames].sort((a, b) => a - b);
    const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(1);
    console.log(
      `scroll frames: ${frames.length}; median ${pct(50)} ms, p95 ${pct(95)} ms, p99 ${pct(99)} ms, max ${sorted.at(-1)!.toFixed(1)} ms; ` +
        `frames over 50 ms: ${frames.filter((f) => f > 50).length}; DOM rows while scrolling: ${maxRows.join(', ')}`,
    );
    // Structural, not timed: the DOM never holds more than a screenful or two of rows.
    expect(Math.max(...maxRows)).toBeLessThan(150);
    await shot(page, 'bench-5000-entries');
    expect(problems).toEqual([]);
  } finally {
    await page.close();
    await host.stop();
  }
});
