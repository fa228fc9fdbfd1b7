import { defineConfig } from 'vitest/config';

/**
 * Tests that start real processes (the fixture agent as a child process, npm, npx, a process
 * tree killed on quit) or install over HTTP. They show what an in-process fake cannot, and cost
 * seconds each, so they are their own project: `npm run test:integration`. Everything else is
 * the unit project (`npm run test:unit`), where agents run in this process
 * (`src-main/testing/inProcessAgent.ts`). `npm test` runs both.
 */
const INTEGRATION = [
  'src-*/**/*.integration.test.ts',
  'src-main/agents/agentLifecycle.test.ts',
  'src-main/agents/realAgent.test.ts',
  'src-main/faults/hostileAgent.test.ts',
  'src-main/acp/dialects/negotiate.test.ts',
  'src-main/install/installer.test.ts',
  'src-main/registry/registryService.test.ts',
];

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 20_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src-*/**/*.test.ts', 'src-*/**/*.test.tsx'],
          exclude: INTEGRATION,
          // Files share a worker's module cache: most of a file's cost here was importing the core
          // again. No unit test mocks modules or leaves globals set (fake timers are restored;
          // environment variables are set only in integration tests), so sharing is safe.
          isolate: false,
          // `gc()` for the heap test of the Markdown splitter (markdownBlocks.test.tsx).
          execArgv: ['--expose-gc'],
        },
      },
      {
        extends: true,
        test: { name: 'integration', include: INTEGRATION },
      },
    ],
  },
});
