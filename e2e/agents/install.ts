/**
 * Installs the suite's pinned agents from npm into a cache folder outside the repository
 * (`$ACP_AGENTS_CACHE`, default `~/.cache/acp-desktop-agents`), one folder per agent and
 * version, reused between runs. npm's ordinary client does the work; an `engines` mismatch is
 * only npm's warning (Qwen Code and Claude Agent declare Node ≥ 22 and run on 20).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { CompatAgent } from './catalog';

const run = promisify(execFile);
export const CACHE = process.env.ACP_AGENTS_CACHE ?? join(homedir(), '.cache/acp-desktop-agents');
export const REGISTRY = process.env.ACP_AGENTS_REGISTRY ?? 'https://registry.npmjs.org/';

export function agentDir(agent: CompatAgent): string {
  return join(CACHE, agent.id);
}

/** The installed version, or null when the pinned one is not there yet. */
export function installedVersion(agent: CompatAgent): string | null {
  try {
    const manifest = JSON.parse(readFileSync(join(agentDir(agent), 'node_modules', agent.package, 'package.json'), 'utf8')) as { version: string };
    return manifest.version;
  } catch {
    return null;
  }
}

/** Why the registry cannot be used, or null when it answers. */
export async function registryUnreachable(): Promise<string | null> {
  try {
    const response = await fetch(`${REGISTRY}-/ping`, { signal: AbortSignal.timeout(8000) });
    return response.ok ? null : `the npm registry (${REGISTRY}) answered ${response.status}`;
  } catch (error) {
    return `the npm registry (${REGISTRY}) cannot be reached: ${(error as Error).message}`;
  }
}

/** Installs the pinned version unless it is there; resolves with the executable's path. */
export async function install(agent: CompatAgent): Promise<string> {
  const dir = agentDir(agent);
  const bin = join(dir, 'node_modules/.bin', agent.bin);
  if (installedVersion(agent) === agent.version && existsSync(bin)) return bin;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true, description: `acp-desktop compat suite: ${agent.name}` }));
  const { stderr } = await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--registry', REGISTRY, `${agent.package}@${agent.version}`], {
    cwd: dir,
    timeout: 10 * 60_000,
    maxBuffer: 16 << 20,
  });
  if (!existsSync(bin)) throw new Error(`npm installed ${agent.package}@${agent.version} but ${bin} is missing:\n${stderr}`);
  return bin;
}
