/**
 * The catalog variant of the compatibility suite: each npm agent of the bundled registry
 * snapshot (`resources/registry/registry.json`) is installed by clicking Install in the Catalog
 * of the browser host, as a person would (the catalog's package and arguments, the installer's
 * fallback when the pinned version is gone, "Install anyway" when the package wants a newer
 * Node.js), and then completes the same full turn as the pinned agents (`fullTurn.ts`). The
 * only settings are the model server's key and endpoint, as environment in `agentOverrides`
 * (and the agent's own settings file in a throwaway HOME), as for the pinned agents; Copilot's
 * language server also gets a token variable and a lasting npm cache (see ENTRIES).
 * Installs are kept in `<cache>/catalog/agents` and reused; `AGENTS=catalog` (or
 * `catalog-gemini,…`) selects these. The app records the ACP traffic itself
 * (`ACP_DESKTOP_WIRE_LOG`): the command line of an installed agent is the app's, untouched.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { parseRegistryIndex, parsePackageSpec, type RegistryAgent } from '../../src-shared/registry/schema';
import { ROOT, startHost, type RunningHost } from '../fixtures/host';
import { AGENTS, type CompatAgent } from './catalog';
import { checksOf, fullTurn, recordRun, suiteModelServer, type CheckRunner } from './fullTurn';
import { CACHE } from './install';
import { RESULTS_DIR, type AgentResult } from './results';

/** The four npm entries of the six agents the catalog and the suite share, with the pinned agent whose setup they reuse. */
const ENTRIES: { registryId: string; setup: CompatAgent['setup']; quirks: RegExp }[] = [
  { registryId: 'gemini', ...pinned('gemini') },
  { registryId: 'qwen-code', ...pinned('qwen-code') },
  { registryId: 'claude-code-acp', ...pinned('claude-code-acp') },
  {
    registryId: 'github-copilot',
    ...pinned('github-copilot', (env) => ({
      ...env,
      // The language server asks for a GitHub session before `session/new`; a token in its
      // environment counts (checked locally), and it hands it to the Copilot CLI it runs,
      // which then uses the BYOK provider above (COPILOT_OFFLINE: no call to GitHub).
      GH_COPILOT_TOKEN: 'compat-key',
      // It finds that CLI with `npx @github/copilot@1.0.79 --version` (≈550 MB in npm's cache, 60 s
      // allowed) and else falls back to its own pipeline, which needs api.github.com. A person's
      // ~/.npm outlives a session; the throwaway HOME does not: npm's cache is kept beside the installs.
      npm_config_cache: join(INSTALLS, 'npm-cache'),
    })),
  },
];
const SNAPSHOT = join(ROOT, 'resources/registry/registry.json');
const OFFLINE_REGISTRY = 'http://127.0.0.1:9/registry.json';
const INSTALLS = join(CACHE, 'catalog');

function pinned(id: string, extend: (env: Record<string, string>) => Record<string, string> = (env) => env): { setup: CompatAgent['setup']; quirks: RegExp } {
  const agent = AGENTS.find((a) => a.id === id)!;
  return { setup: (url, home) => extend(agent.setup(url, home)), quirks: agent.quirks };
}

const only = process.env.AGENTS?.split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const selected = ENTRIES.filter((entry) => !only?.length || only.includes('catalog') || only.includes(`catalog-${entry.registryId}`));

delete process.env.IS_SANDBOX;

const models = suiteModelServer(selected.length > 0);

for (const entry of selected) {
  const agent = snapshotEntry(entry.registryId);
  test(`${agent.name} installed from the catalog (${agent.distribution.npx!.package}) completes a full turn through the UI`, async ({ page }) => {
    test.skip(models.unreachable !== null, `the npm registry cannot be reached: ${models.unreachable}`);
    test.setTimeout(20 * 60_000);
    const id = `catalog-${agent.id}`;
    const result: AgentResult = {
      id,
      name: `${agent.name} (catalog)`,
      package: parsePackageSpec(agent.distribution.npx!.package).name,
      version: `${agent.version} (pinned)`,
      checks: [],
      observations: [],
      quirkPattern: entry.quirks.source,
      finishedAt: '',
    };
    // The app writes `<folder>/<agent id>.wire.jsonl`; the pinned agent of the same id has its own log.
    const wireDir = join(RESULTS_DIR, 'catalog-wire');
    const appWireLog = join(wireDir, `${agent.id}.wire.jsonl`);
    let host: RunningHost | undefined;
    await recordRun(
      result,
      appWireLog,
      async () => {
        const check = checksOf(result);
        const workspace = mkdtempSync(join(tmpdir(), `acp-compat-${id}-`));
        mkdirSync(join(INSTALLS, 'agents'), { recursive: true });
        const home = mkdtempSync(join(INSTALLS, 'home-'));
        const dataDir = mkdtempSync(join(tmpdir(), `acp-compat-${id}-data-`));
        // A fresh app folder each run, with the installs of earlier runs (an install is minutes).
        symlinkSync(join(INSTALLS, 'agents'), join(dataDir, 'agents'), 'dir');
        host = await startHost({
          dataDir,
          workspace,
          settings: { agentOverrides: { [agent.id]: { env: entry.setup(models.url, home) } } },
          env: { ...withoutNpmScriptEnv(), ACP_DESKTOP_REGISTRY_URL: OFFLINE_REGISTRY, ACP_DESKTOP_WIRE_LOG: wireDir },
        });
        await page.goto(host.url);
        await expect(page.getByRole('heading', { name: 'Agents' })).toBeVisible();
        const version = await installFromCatalog(page, agent, check);
        if (!version) return;
        result.name = `${agent.name} (catalog ${version})`;
        result.version = version;
        const card = page.getByRole('dialog', { name: 'Agent catalog' }).getByRole('listitem', { name: agent.name });
        await fullTurn(page, {
          id,
          workspace,
          wireLog: appWireLog,
          check,
          openSession: () => card.getByRole('button', { name: `Start a session with ${agent.name}` }).click(),
        });
      },
      async () => {
        await host?.stop();
        // Under the result's id, where the table's writer reads it.
        if (existsSync(appWireLog)) copyFileSync(appWireLog, join(RESULTS_DIR, `${id}.wire.jsonl`));
        else rmSync(join(RESULTS_DIR, `${id}.wire.jsonl`), { force: true });
      },
    );
  });
}

/**
 * Installs through the catalog's card: Install, then "Install anyway" if the package wants a
 * newer Node.js. Resolves with the package version npm installed (null when it failed).
 */
async function installFromCatalog(page: Page, agent: RegistryAgent, check: CheckRunner): Promise<string | null> {
  let version: string | null = null;
  await check('install', async () => {
    await page.getByRole('button', { name: 'Browse the agent catalog…' }).click();
    const catalog = page.getByRole('dialog', { name: 'Agent catalog' });
    // The registry address leads nowhere: the catalog is the snapshot bundled with the app.
    await expect(catalog.getByText(/^Registry snapshot bundled with the app/)).toBeVisible();
    await catalog.getByLabel('Search agents').fill(agent.name);
    const card = catalog.getByRole('listitem', { name: agent.name });
    const installedBadge = card.getByText(/^Installed \S+/);
    const said: string[] = [];
    if (!(await installedBadge.isVisible())) {
      await card.getByRole('button', { name: `Install ${agent.name}` }).click();
      const deadline = Date.now() + 12 * 60_000;
      while (!(await installedBadge.isVisible())) {
        if (Date.now() > deadline) throw new Error(`not installed after 12 minutes; ${said.at(-1) ?? ''}`);
        const status = card.getByRole('status');
        if (await status.isVisible()) {
          const text = ((await status.textContent()) ?? '').trim();
          if (text && text !== said.at(-1)) said.push(text);
        }
        const anyway = card.getByRole('button', { name: 'Install anyway' });
        if (await anyway.isVisible()) {
          said.push(`offered "Install anyway": ${((await card.getByRole('alert').textContent()) ?? '').trim()}`);
          await anyway.click();
        } else if (await card.getByRole('alert').isVisible()) {
          throw new Error(`the card says: ${((await card.getByRole('alert').textContent()) ?? '').trim()}`);
        }
        await page.waitForTimeout(500);
      }
    } else said.push('installed by an earlier run');
    const badge = ((await installedBadge.textContent()) ?? '').trim();
    // The badge names the catalog's version; npm may have installed another (the pin is gone).
    version = npmVersion(agent) ?? /^Installed (\S+)/.exec(badge)?.[1] ?? null;
    const notes = said.filter((text) => /anyway|no longer|instead|newest|earlier run|declares/i.test(text));
    return `catalog ${agent.version} → npm ${version} (the card says "${badge}")${notes.length ? `; ${notes.join('; ')}` : ''}`;
  });
  return version;
}

/**
 * The app as a person starts it, not from an npm script: Playwright runs under `npx`, which
 * sets `npm_config_*` (among them an empty `npm_config_yes`, which makes every `npx` an agent
 * runs refuse to install: Copilot's language server then never finds its CLI). Node leaves
 * out variables set to undefined.
 */
function withoutNpmScriptEnv(): Record<string, string> {
  return Object.fromEntries(
    Object.keys(process.env)
      .filter((key) => /^npm_/i.test(key))
      .map((key) => [key, undefined]),
  ) as unknown as Record<string, string>;
}

/** The package version npm installed, from the installer's manifest (its `source`, `name@version`). */
function npmVersion(agent: RegistryAgent): string | null {
  try {
    const dir = join(INSTALLS, 'agents', agent.id);
    const current = JSON.parse(readFileSync(join(dir, 'current.json'), 'utf8')) as { version: string };
    const manifest = JSON.parse(readFileSync(join(dir, current.version, '.acp-install.json'), 'utf8')) as { source: string };
    return parsePackageSpec(manifest.source).version ?? null;
  } catch {
    return null;
  }
}

function snapshotEntry(id: string): RegistryAgent {
  const parsed = parseRegistryIndex(JSON.parse(readFileSync(SNAPSHOT, 'utf8')));
  if (!parsed.ok) throw new Error(parsed.error);
  const agent = parsed.index.agents.find((a) => a.id === id);
  if (!agent?.distribution.npx) throw new Error(`${id} has no npm distribution in ${SNAPSHOT}`);
  return agent;
}
