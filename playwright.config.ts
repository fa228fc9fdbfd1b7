import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

/** System Chromium (Debian's) unless CHROMIUM_PATH says otherwise; Playwright's own where installed. */
const chromium = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);

/**
 * The specs that exercise the agent protocol run a second time with the fixture agent set to
 * `auto` (it then speaks ACP v2); tests tagged `@v1` need v1 by nature (the client's file system
 * or terminals, legacy modes, v1 wire shapes) and those tagged `@once` speak no protocol (a
 * command that cannot start, a host restart): both are left out there. Every other spec
 * (registry, layout, Electron) runs once, in `v1`.
 */
const PROTOCOL_SPECS = [
  'conversation',
  'inspector',
  'model-config',
  'engine-auth',
  'engine-cancel',
  'engine-permission',
  'ui-permissions',
  'ui-elicitation',
  'ui-transcript',
  'ui-composer',
  'sessions-history',
  'sessions-restore',
  'failures',
  'remote',
].map((name) => `**/${name}.spec.ts`);

export default defineConfig<{ agentProtocol: 'v1' | 'auto' }>({
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
  projects: [
    { name: 'v1', use: { agentProtocol: 'v1' } },
    { name: 'auto', use: { agentProtocol: 'auto' }, testMatch: PROTOCOL_SPECS, grepInvert: /@v1\b|@once\b/ },
  ],
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
