/**
 * The Chromium every benchmark drives (Debian's; `CHROMIUM` names another), launched without the
 * browser's own omnibox popup. Chromium 156 builds that popup (a WebUI page of some 300 scripts)
 * for each new window, so for each new context a round opens: about 100 ms of CPU across the
 * browser's processes while the page loads, as much for the floor as for the app. A person opens
 * the app in a browser whose popup was built once, at its start; on a loaded machine the popup's
 * work sat on the measured page's first frame (Puppeteer leaves it off by default for the same
 * reason: puppeteer/puppeteer#15278).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

const OMNIBOX_POPUP = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/**
 * Playwright's own `--disable-features` list (its chromiumSwitches.ts). Chromium keeps only the
 * last `--disable-features` switch, so ours must carry Playwright's names too (PaintHolding among
 * them, which decides when a new page's first frame is shown).
 */
function playwrightDisabledFeatures(): string[] {
  const core = dirname(createRequire(import.meta.url).resolve('playwright-core'));
  const bundle = readFileSync(join(core, 'lib/coreBundle.js'), 'utf8');
  const list = /disabledFeatures = \[([\s\S]*?)\]\.filter/.exec(bundle)?.[1];
  const names = [...(list ?? '').matchAll(/"([A-Za-z0-9]+)"/g)].map((m) => m[1]);
  if (!names.includes('PaintHolding')) {
    throw new Error(`Playwright's --disable-features list was not found in ${core}/lib/coreBundle.js: bench/browser.ts must learn where it moved`);
  }
  return names;
}

export function launchBenchBrowser(args: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: [`--disable-features=${[...playwrightDisabledFeatures(), ...OMNIBOX_POPUP].join(',')}`, ...args],
  });
}
