import { defineConfig } from '@playwright/test';
import base from '../../playwright.config';

/**
 * The opt-in compatibility suite (`npm run test:agents`): real agents from npm against the
 * scripted model server, one at a time (each runs a whole agent and a host); not part of
 * `npm test`. Its global teardown writes the results table into docs/AGENTS.md.
 */
export default defineConfig({
  ...base,
  testDir: '.',
  testMatch: '**/*.agents.ts',
  timeout: 15 * 60_000,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  outputDir: '../../test-results/agents',
  globalTeardown: './teardown.ts',
  // A check that waits for an element gives up after 15 s and is recorded as failed (the default is no limit).
  use: { ...base.use, actionTimeout: 15_000 },
});
