import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, openApp, send, shot, startSession, test, waitIdle } from './ui-support';

/** axe-core's WCAG checks on the page (Monaco's and xterm's own DOM excluded: third-party widgets with their own a11y layers). */
async function axe(page: Page, state: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).exclude('.monaco-editor').exclude('.xterm').analyze();
  return results.violations.map((v) => `${state}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test.describe('13 · accessibility and looks', () => {
  test('every control has a role and an accessible name; focus is visible', async ({ page, host, problems }) => {
    await openApp(page, host);
    await startSession(page, 'Fixture Agent', host.workspace);
    await send(page, 'permission');
    await expect(page.getByRole('group', { name: /Permission requested/ })).toBeVisible();
    const controls = page.locator('button, select, textarea, input, [role="tab"], [role="switch"], a[href]');
    const count = await controls.count();
    expect(count).toBeGreaterThan(15);
    const unnamed: string[] = [];
    for (let i = 0; i < count; i++) {
      const control = controls.nth(i);
      if (!(await control.isVisible())) continue;
      if (await control.evaluate((el) => Boolean(el.closest('[aria-hidden="true"]')))) continue;
      // Monaco's own hidden inputs are named by the editor (aria-label on its textarea).
      const name = await control.evaluate((el) => {
        const label = el.getAttribute('aria-label') || el.getAttribute('aria-labelledby') || el.getAttribute('title');
        const labels = (el as HTMLInputElement).labels;
        const text = el.textContent?.trim();
        return label || (labels && labels.length ? labels[0].textContent : '') || text || '';
      });
      if (!name) unnamed.push(await control.evaluate((el) => el.outerHTML.slice(0, 120)));
    }
    expect(unnamed).toEqual([]);
    // Visible focus ring on keyboard focus.
    await page.getByRole('button', { name: 'Settings' }).focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(outline).not.toBe('none');
    await page.getByRole('button', { name: 'Reject', exact: true }).click();
    await waitIdle(page);
    expect(problems).toEqual([]);
  });

  test('axe-core finds no violations: transcript with tool cards and a permission, an elicitation form, settings, dark theme', async ({ page, host }) => {
    // Without fades: buttons fade their background (0.12 s) while text colours change at once, and
    // axe, run just after the theme changed, read old backgrounds under new text (a flake in CI).
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await openApp(page, host);
    await startSession(page, 'Fixture Agent', host.workspace);
    await send(page, 'tools');
    await waitIdle(page);
    await send(page, 'permission');
    await expect(page.getByRole('group', { name: /Permission requested/ })).toBeVisible();
    const violations = await axe(page, 'permission');
    await page.getByRole('button', { name: 'Allow once' }).click();
    await waitIdle(page);
    await send(page, 'elicit');
    await expect(page.getByRole('region', { name: 'Tell me about your project' })).toBeVisible();
    await page.getByRole('button', { name: 'Accept' }).click();
    violations.push(...(await axe(page, 'elicitation with errors')));
    await page.getByRole('button', { name: 'Decline' }).click();
    await waitIdle(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    violations.push(...(await axe(page, 'dark')));
    await page.getByRole('button', { name: 'Settings' }).click();
    await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
    violations.push(...(await axe(page, 'settings (dark)')));
    expect(violations).toEqual([]);
  });

  test('dark theme follows the OS; light and dark screenshots', async ({ page, host }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await openApp(page, host);
    await startSession(page, 'Fixture Agent', host.workspace);
    await send(page, 'tools');
    await waitIdle(page);
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(23, 25, 29)');
    await shot(page, 'dark-theme');
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(255, 255, 255)');
    await shot(page, 'light-theme');
  });

  test('readable at 200% zoom: a 640×410 CSS viewport, nothing cut off sideways, the sidebar folds away', async ({ page, host }) => {
    await page.setViewportSize({ width: 640, height: 410 });
    await page.goto(host.url);
    await expect(page.getByRole('button', { name: 'Show sidebar' })).toBeVisible();
    // Narrow: the sidebar starts folded away and opens over the content.
    await expect(page.getByRole('navigation', { name: 'Agents and sessions' })).toBeHidden();
    await page.getByRole('button', { name: 'Show sidebar' }).click();
    await startSession(page, 'Fixture Agent', host.workspace);
    await expect(page.getByRole('navigation', { name: 'Agents and sessions' })).toBeHidden();
    await send(page, 'hello at 200%');
    await waitIdle(page);
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeInViewport();
    await expect(page.getByRole('button', { name: 'Send' })).toBeInViewport();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(page, 'zoom-200');
    await page.getByRole('button', { name: 'Show sidebar' }).click();
    await expect(page.getByRole('navigation', { name: 'Agents and sessions' })).toBeVisible();
  });
});
