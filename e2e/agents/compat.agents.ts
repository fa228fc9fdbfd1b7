/**
 * The compatibility suite (`npm run test:agents`, not part of `npm test`): each pinned agent,
 * installed from npm into a cache folder, pointed at the scripted model server, completes one
 * full turn through the browser host in Chromium: a thought, text, a file written, read and
 * edited, a permission answered, the Review panel agreeing with the disk, a shell command's
 * output, Stop, and a second turn. Every check is recorded (not only the first failure) in
 * `e2e/artifacts/agents/<id>.json` and the table of docs/AGENTS.md; the agent's ACP traffic is
 * in `e2e/artifacts/agents/<id>.wire.jsonl`. Skipped, with the reason printed, when the npm
 * registry cannot be reached. `AGENTS=gemini,opencode` runs a subset.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startHost, type RunningHost } from '../fixtures/host';
import { AGENTS, type CompatAgent } from './catalog';
import { checksOf, fullTurn, recordRun, suiteModelServer } from './fullTurn';
import { agentDir, install, installedVersion } from './install';
import { RESULTS_DIR, type AgentResult } from './results';

const WIRE_TAP = join(import.meta.dirname, 'wireTap.mjs');
const only = process.env.AGENTS?.split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const selected = AGENTS.filter((agent) => !only?.length || only.includes(agent.id));

// A person's shell does not set it: as root the app must (quirks/claudeCodeAcp.ts), not the machine running the suite.
delete process.env.IS_SANDBOX;

const models = suiteModelServer();

for (const agent of selected) {
  test(`${agent.name} (${agent.package}@${agent.version}) completes a full turn through the UI`, async ({ page }) => {
    test.skip(models.unreachable !== null, `the npm registry cannot be reached: ${models.unreachable}`);
    test.setTimeout(12 * 60_000);
    const result: AgentResult = {
      id: agent.id,
      name: agent.name,
      package: agent.package,
      version: agent.version,
      checks: [],
      observations: [],
      quirkPattern: agent.quirks.source,
      finishedAt: '',
    };
    const wireLog = join(RESULTS_DIR, `${agent.id}.wire.jsonl`);
    let host: RunningHost | undefined;
    await recordRun(
      result,
      wireLog,
      () => runAgent(page, agent, result, wireLog, (h) => (host = h)),
      async () => host?.stop(),
    );
  });
}

async function runAgent(page: Page, agent: CompatAgent, result: AgentResult, wireLog: string, hosted: (host: RunningHost) => void): Promise<void> {
  const check = checksOf(result);
  const installed = await check('install', async () => {
    await install(agent);
    return `installed ${installedVersion(agent)}`;
  });
  if (!installed) return;

  const workspace = mkdtempSync(join(tmpdir(), `acp-compat-${agent.id}-`));
  const home = mkdtempSync(join(agentDir(agent), 'home-'));
  const env = agent.setup(models.url, home);
  const bin = join(agentDir(agent), 'node_modules/.bin', agent.bin);
  const host = await startHost({
    workspace,
    settings: { agents: [{ id: agent.id, name: agent.name, command: process.execPath, args: [WIRE_TAP, wireLog, bin, ...agent.args], env }] },
  });
  hosted(host);
  await page.goto(host.url);
  await expect(page.getByRole('heading', { name: 'Agents' })).toBeVisible();
  await fullTurn(page, {
    id: agent.id,
    workspace,
    wireLog,
    check,
    openSession: () => page.getByRole('button', { name: `New session with ${agent.name}` }).click(),
  });
}
