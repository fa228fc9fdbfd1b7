import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commonToolDirs, detectNode, detectUv, findOnPath, findTool, pathWith } from './runtimes';

const home = mkdtempSync(join(tmpdir(), 'acp-home-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

function fakeTool(dir: string, name: string, output: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/sh\necho "${output}"\n`);
  chmodSync(file, 0o755);
  return file;
}

describe.skipIf(process.platform === 'win32')('runtime detection', () => {
  it('finds programs on PATH, executables only', () => {
    const bin = join(home, 'bin');
    fakeTool(bin, 'tool', 'x');
    writeFileSync(join(bin, 'plain'), 'not executable');
    expect(findOnPath('tool', { PATH: bin })).toBe(join(bin, 'tool'));
    expect(findOnPath('plain', { PATH: bin })).toBeNull();
    expect(findOnPath('tool', { PATH: '' })).toBeNull();
  });

  it('finds Node.js from nvm when PATH is short (an app started from a desktop launcher)', async () => {
    const older = join(home, '.nvm', 'versions', 'node', 'v18.0.0', 'bin');
    const newer = join(home, '.nvm', 'versions', 'node', 'v20.11.1', 'bin');
    fakeTool(older, 'node', 'v18.0.0');
    const node = fakeTool(newer, 'node', 'v20.11.1');
    fakeTool(newer, 'npm', '10.2.4');
    const env = { HOME: home, PATH: '/nonexistent' };
    expect(commonToolDirs(env, 'linux')).toContain(newer);
    expect(findTool('node', env)).toBe(node);
    const found = await detectNode(env);
    expect(found).toMatchObject({ ok: true, node, npm: join(newer, 'npm'), version: '20.11.1', npmVersion: '10.2.4' });
    // The agent's PATH gets that folder first, so `#!/usr/bin/env node` works inside it.
    expect(pathWith(node, env)).toBe(`${newer}:/nonexistent`);
    expect(pathWith(node, { PATH: newer })).toBeUndefined();
  });

  it('says what is wrong when Node.js is too old or npm is missing', async () => {
    const dir = join(home, 'old');
    fakeTool(dir, 'node', 'v16.20.0');
    expect(await detectNode({ PATH: dir })).toMatchObject({ ok: false, version: '16.20.0', message: expect.stringMatching(/Node\.js 16\.20\.0 is too old/) });
    const lonely = join(home, 'lonely');
    fakeTool(lonely, 'node', 'v22.1.0');
    expect(await detectNode({ PATH: lonely })).toMatchObject({ ok: false, message: expect.stringMatching(/npm was not found beside Node\.js 22\.1\.0/) });
  });

  it('finds uv in ~/.local/bin (where its installer puts it)', async () => {
    const dir = join(home, '.local', 'bin');
    fakeTool(dir, 'uv', 'uv 0.9.2');
    fakeTool(dir, 'uvx', 'uv 0.9.2');
    expect(await detectUv({ HOME: home, PATH: '/nonexistent' })).toMatchObject({ ok: true, uvx: join(dir, 'uvx'), version: '0.9.2' });
    expect(await detectUv({ PATH: '/nonexistent' })).toMatchObject({ ok: false, message: expect.stringMatching(/uv \(uvx\) was not found/) });
  });
});
