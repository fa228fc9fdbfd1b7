import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

/** System Chromium (Debian's) unless CHROMIUM_PATH says otherwise; Playwright's own where installed. */
const chromium = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  // Each worker runs its own host and fixture agents; two fit the 2-core CI machines and laptops alike.
  workers: 2,
  // One retry on CI only: a test that needed it is reported as "flaky" in the output, never hidden.
  retries: process.env.CI ? 1 : 0,
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  outputDir: 'test-results',
  use: {
    headless: true,
    viewport: { width: 1280, height: 820 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: chromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
