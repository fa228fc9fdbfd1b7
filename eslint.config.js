// Lint: the layer map. `src-renderer → src-shared ← src-main`; only src-main/electron imports
// electron; only src-main/acp imports the ACP SDK at run time; src-shared uses neither Node nor DOM.
// Inside src-main, folders are stacked (SRC_MAIN_LAYERS); import cycles: scripts/check-cycles.mjs.
import tseslint from 'typescript-eslint';
import { codeLayering } from './scripts/eslint/codeLayering.mjs';

/**
 * The folders of src-main, top to bottom (docs/ARCHITECTURE.md): a file imports from its own
 * group or from lower layers only. Groups in one layer do not import each other.
 */
const SRC_MAIN_LAYERS = [
  ['cli.ts', 'electron/', 'testing/'], // the hosts (and the test harness, which is one)
  ['server/'], // the browser host's HTTP + WebSocket server (started by cli.ts)
  ['core/'], // the composition root and the handler table
  ['registry/', 'history/', 'worktrees/'], // services that never import the core
  ['install/'], // downloads, archives, runtimes, the post-install probe
  ['sessions/'], // sessions, turns, the client side of the protocol
  ['agents/'], // AgentManager: one process per agent, initialize
  ['acp/'], // AgentConnection: the only runtime user of the SDK
  ['checkpoints/'], // shadow-git checkpoints of session folders, restores, rejects (issue 24)
  ['terminals/', 'fs/', 'store/'], // node-pty terminals, file access, files in the data folder
  ['process/', 'quirks/'], // spawning agent processes; agent-specific quirks
  ['net/', 'log/'], // HTTP helpers, the main log
  ['acp/decode/'], // the wire edge's decoders: ACP JSON (and old logs' v1-shaped events) into the app's typed events
  ['errors/'], // the error types
];

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'resources/**', 'e2e/artifacts/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        { selector: 'CallExpression[callee.name="require"][arguments.0.value="electron"]', message: 'Never require electron outside src-main/electron.' },
      ],
    },
  },
  {
    // Tests drive the core from any folder (coreHarness), so they are outside the layers.
    files: ['src-main/**/*.ts'],
    ignores: ['src-main/**/*.test.ts'],
    plugins: { local: { rules: { 'code-layering': codeLayering } } },
    rules: { 'local/code-layering': ['error', { root: 'src-main', layers: SRC_MAIN_LAYERS }] },
  },
  {
    files: ['src-shared/**/*.ts'],
    ignores: ['src-shared/**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*', 'fs', 'path', 'os', 'child_process'], message: 'src-shared runs anywhere: no Node modules.' },
            { group: ['**/src-main/**', '**/src-renderer/**'], message: 'src-shared imports neither main nor the renderer.' },
            { group: ['electron', 'react', 'react-dom', 'zustand'], message: 'src-shared has no electron, React or zustand.' },
            { group: ['@agentclientprotocol/sdk*'], allowTypeImports: true, message: 'src-shared may only import types from the SDK.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src-main/**/*.ts'],
    ignores: ['src-main/electron/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'Only src-main/electron/ may import electron, so the core runs in plain Node.' }],
          patterns: [{ group: ['**/src-renderer/**'], message: 'Main must not import the renderer.' }],
        },
      ],
    },
  },
  {
    files: ['src-main/**/*.ts'],
    ignores: ['src-main/electron/**', 'src-main/acp/**', 'src-main/testing/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'Only src-main/electron/ may import electron, so the core runs in plain Node.' }],
          patterns: [
            { group: ['@agentclientprotocol/sdk*'], allowTypeImports: true, message: 'Only src-main/acp/ uses the ACP SDK at run time.' },
            { group: ['**/src-renderer/**'], message: 'Main must not import the renderer.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*', 'electron'], message: 'The renderer has no Node and no electron.' },
            { group: ['**/src-main/**'], message: 'The renderer talks to main only through the IPC contract (src-shared).' },
            { group: ['@agentclientprotocol/sdk*'], allowTypeImports: true, message: 'The renderer may only import SDK types.' },
          ],
        },
      ],
    },
  },
  {
    files: ['e2e/**/*.{ts,mjs}', '*.config.ts', 'scripts/**', 'bench/**'],
    rules: { '@typescript-eslint/no-restricted-imports': 'off' },
  },
);
