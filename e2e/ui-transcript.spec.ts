import { fixtureAgent, startHost } from './fixtures/host';
import { expect, FIXTURE, openApp, openTwoSessions, send, shot, startSession, test, transcript, waitIdle } from './ui-support';

test.describe('2 · transcript', () => {
  test('streamed Markdown with code: no flicker while streaming, links open outside, raw HTML never rendered', async ({ page, problems }) => {
    // A slow agent, so the half-finished message can be watched: 250 ms a chunk keeps the unfinished code block on screen for
    // about a second (at 90 ms a page stall of half a second, seen on a loaded 2-core machine, could skip it entirely).
    const host = await startHost({ settings: { agents: [fixtureAgent('slowfx', 'Slow Agent', ['--delay', '250'])] } });
    try {
      await openApp(page, host);
      await startSession(page, 'Slow Agent', host.workspace);
      // Watch every text the transcript shows while the answer streams: a code fence must never show as literal backticks.
      await page.evaluate(() => {
        const log = document.querySelector('[role="log"]')!;
        const seen: { text: string; code: boolean; busy: boolean }[] = [];
        (window as unknown as { seen: typeof seen }).seen = seen;
        new MutationObserver(() => {
          const article = log.querySelector('article[aria-label="Agent"]');
          if (!article) return;
          seen.push({ text: article.textContent ?? '', code: Boolean(article.querySelector('pre code')), busy: article.getAttribute('aria-busy') === 'true' });
        }).observe(log, { subtree: true, childList: true, characterData: true, attributes: true });
      });
      await send(page, 'See [the ACP site](https://agentclientprotocol.com) and <img src=x onerror="window.pwned=1"> <b>bold?</b>');
      const answer = transcript(page).getByRole('article', { name: 'Agent' });
      // The code block renders as code before the closing fence has arrived.
      const code = answer.locator('pre code');
      await expect(code).toContainText('console.log', { timeout: 15_000 });
      const streamingNode = await answer.elementHandle();
      await waitIdle(page);
      await expect(code).toContainText('console.log("hello from the fixture");');
      // The same DOM node from the first chunk to the last: nothing was torn down and rebuilt.
      expect(await streamingNode!.evaluate((node) => node.isConnected)).toBe(true);
      const seen = await page.evaluate(() => (window as unknown as { seen: { text: string; code: boolean; busy: boolean }[] }).seen);
      expect(seen.length).toBeGreaterThan(5);
      // While still streaming, the unfinished code block already rendered as code…
      expect(seen.some((s) => s.busy && s.code && !s.text.includes('fixture");'))).toBe(true);
      // …and the fence never showed as literal backticks.
      expect(seen.filter((s) => s.text.includes('```'))).toEqual([]);

      // Links: a new window, no opener (Electron's main hands it to the OS browser).
      const link = answer.getByRole('link', { name: 'the ACP site' });
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('rel', /noopener/);
      await expect(link).toHaveAttribute('href', 'https://agentclientprotocol.com');
      // Raw HTML is shown as text, never as elements.
      await expect(answer.locator('img, b')).toHaveCount(0);
      await expect(answer).toContainText('<img src=x onerror="window.pwned=1">');
      expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
      await expect(answer.getByRole('button', { name: 'Copy code' })).toBeVisible();
      await shot(page, 'streamed-answer-with-code');
      expect(problems).toEqual([]);
    } finally {
      await page.close();
      await host.stop();
    }
  });

  test('thoughts are collapsible; stop reasons and errors show inline', async ({ page, host }) => {
    await openApp(page, host);
    await startSession(page, 'Fixture Agent', host.workspace);
    await send(page, 'thought');
    await waitIdle(page);
    const toggle = transcript(page).getByRole('button', { name: /^Thought/ });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(transcript(page).getByRole('region', { name: 'Thought' })).toHaveText('Let me think about this carefully.');
    await toggle.click();
    await expect(transcript(page).getByRole('region', { name: 'Thought' })).toBeHidden();
    await expect(transcript(page).getByRole('status').filter({ hasText: 'Turn ended' })).toBeVisible();

    await send(page, 'fail');
    await expect(transcript(page).getByRole('alert')).toContainText('Failed: The fixture failed on purpose');
  });

  test('auto-scroll follows the stream, stops when the person scrolls up, "Jump to latest" returns', async ({ page, host }) => {
    await openApp(page, host);
    await startSession(page, 'Fixture Agent', host.workspace);
    await send(page, 'many 4000');
    await waitIdle(page);
    const log = transcript(page);
    const distanceFromBottom = () => log.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    await expect.poll(distanceFromBottom).toBeLessThan(30);

    await send(page, 'slow');
    await expect(log.getByText(/chunk 5/)).toBeVisible();
    await expect.poll(distanceFromBottom).toBeLessThan(30);
    // The person scrolls up: following stops and the button appears.
    await log.hover();
    await page.mouse.wheel(0, -600);
    const jump = page.getByRole('button', { name: 'Jump to latest' });
    await expect(jump).toBeVisible();
    const top = await log.evaluate((el) => el.scrollTop);
    await expect(log.getByText(/chunk 12/)).toBeAttached();
    expect(Math.abs((await log.evaluate((el) => el.scrollTop)) - top)).toBeLessThan(5);
    expect(await distanceFromBottom()).toBeGreaterThan(100);
    await jump.click();
    await expect(jump).toBeHidden();
    await expect.poll(distanceFromBottom).toBeLessThan(30);
    await expect(log.getByText(/chunk 16/)).toBeVisible();
    await page.getByRole('button', { name: 'Stop' }).click();
    await waitIdle(page);
  });

  test('switching tabs during a stream loses nothing (output and draft)', async ({ page, host }) => {
    const tabs = await openTwoSessions(page, host);
    await tabs.nth(0).click();
    await send(page, 'slow');
    await expect(transcript(page).getByText(/chunk 2 /)).toBeVisible();
    await page.getByRole('textbox', { name: 'Message' }).fill('a draft I am still writing');
    await tabs.nth(1).click();
    await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue('');
    await page.waitForTimeout(1200);
    await tabs.nth(0).click();
    await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue('a draft I am still writing');
    await expect(transcript(page).getByText(/chunk 20 /)).toBeVisible();
    await page.getByRole('button', { name: 'Stop' }).click();
    await waitIdle(page);
    const text = (await transcript(page).getByRole('article', { name: 'Agent' }).last().textContent()) ?? '';
    const numbers = [...text.matchAll(/chunk (\d+)/g)].map((m) => Number(m[1]));
    expect(numbers.length).toBeGreaterThan(20);
    expect(numbers).toEqual(numbers.map((_, i) => i));
  });
});

export { FIXTURE };
