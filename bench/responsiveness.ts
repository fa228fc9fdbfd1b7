/**
 * How the app answers a person while an answer streams at wire speed: the flood agent streams
 * `endless` (until Stop) in one tab, a quiet session is open in another; after `STREAM_MS`, 21
 * characters are typed into the composer and the tabs are switched there and back. Each key's
 * latency comes from the page's Event Timing API (from the key's timestamp to the next paint,
 * what INP measures), so it is the page's answer, not Playwright's round trips.
 */
import type { Browser, Page } from 'playwright-core';
import { newSession, startHost } from './host';

export interface ResponsivenessResult {
  /** Typing 21 characters, from the first key to the composer holding them all. */
  typingMs: number;
  /** Each key's keydown duration, to the next paint (Event Timing; under 16 ms is not reported, counted as 16). */
  keyMedianMs: number;
  keyMaxMs: number;
  /** Clicking the quiet tab until its message shows, and back until the stream shows. */
  switchAwayMs: number;
  switchBackMs: number;
  longestTaskMs: number;
}

const STREAM_MS = 3000;
const TYPED = 'typed while streaming';

export async function responsivenessRun(browser: Browser, agent: { id: string; name: string; command: string; args: string[] }): Promise<ResponsivenessResult> {
  const host = await startHost({ agents: [agent] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  const page = await context.newPage();
  try {
    await page.goto(host.url);
    await newSession(page, agent.name);
    await send(page, 'say hello from the quiet tab');
    await page.waitForFunction(`${LAST_AGENT}?.textContent.includes('hello from the quiet tab')`);
    await newSession(page, agent.name);
    await send(page, 'endless');
    await page.waitForTimeout(STREAM_MS);
    await page.evaluate(`(() => {
      window.benchKeys = [];
      window.benchLongest = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) if (entry.name === 'keydown') window.benchKeys.push(entry.duration);
      }).observe({ type: 'event', durationThreshold: 16 });
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.benchLongest = Math.max(window.benchLongest, entry.duration);
      }).observe({ type: 'longtask' });
    })()`);
    const composer = page.getByRole('textbox', { name: 'Message' });
    let started = Date.now();
    await composer.pressSequentially(TYPED, { delay: 5 });
    await page.waitForFunction(`document.querySelector('textarea[aria-label="Message"]')?.value === ${JSON.stringify(TYPED)}`, undefined, { polling: 'raf' });
    const typingMs = Date.now() - started;
    const tabs = page.getByRole('tablist', { name: 'Open sessions' }).getByRole('tab');
    started = Date.now();
    await tabs.first().click();
    await page.waitForFunction(`${LAST_AGENT}?.textContent.includes('hello from the quiet tab')`, undefined, { polling: 'raf' });
    const switchAwayMs = Date.now() - started;
    started = Date.now();
    await tabs.nth(1).click();
    await page.waitForFunction(`${LAST_AGENT}?.getAttribute('aria-busy') === 'true' && ${LAST_AGENT}.textContent.includes('stream')`, undefined, {
      polling: 'raf',
    });
    const switchBackMs = Date.now() - started;
    const { keys, longest } = (await page.evaluate('({ keys: window.benchKeys, longest: window.benchLongest })')) as { keys: number[]; longest: number };
    // One keydown per character (its duration runs to the next paint); those under 16 ms were not reported.
    const all = [...keys, ...Array<number>(Math.max(0, TYPED.length - keys.length)).fill(16)].sort((a, b) => a - b);
    await page.getByRole('button', { name: 'Stop' }).click();
    return { typingMs, keyMedianMs: all[all.length >> 1], keyMaxMs: all[all.length - 1], switchAwayMs, switchBackMs, longestTaskMs: longest };
  } finally {
    await context.close();
    await host.stop();
  }
}

const LAST_AGENT = `[...document.querySelectorAll('[role="log"] article[aria-label="Agent"]')].at(-1)`;

async function send(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}
