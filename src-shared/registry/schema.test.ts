import { describe, expect, it } from 'vitest';
import snapshot from '../../resources/registry/registry.json';
import { parsePackageSpec, parseRegistryIndex, resolveDistributions, type RegistryAgent } from './schema';

const agent = (extra: Record<string, unknown> = {}) => ({
  id: 'some-agent',
  name: 'Some Agent',
  version: '1.2.3',
  description: 'Does things',
  distribution: { npx: { package: 'some-agent@1.2.3' } },
  ...extra,
});

describe('parseRegistryIndex', () => {
  it('accepts the bundled snapshot', () => {
    const parsed = parseRegistryIndex(snapshot);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.warnings).toEqual([]);
    expect(parsed.index.agents.length).toBeGreaterThan(5);
    expect(parsed.index.agents.map((a) => a.id)).toContain('gemini');
  });

  it('keeps unknown fields at every level', () => {
    const parsed = parseRegistryIndex({
      version: '1.0.0',
      agents: [
        agent({
          homepage: 'https://example.com',
          distribution: {
            npx: { package: 'x@1.0.0', future: true },
            binary: {
              'linux-x86_64': { archive: 'https://example.com/a.tgz', cmd: './a', sha256: 'abc' },
              'linux-riscv64': { archive: 'https://example.com/b.tgz', cmd: './b' },
            },
            wasm: { module: 'x.wasm' },
          },
        }),
      ],
      extensions: [{ anything: 1 }],
      generatedAt: '2026-01-01',
    });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const index = parsed.index as Record<string, unknown>;
    expect(index.generatedAt).toBe('2026-01-01');
    expect(index.extensions).toEqual([{ anything: 1 }]);
    const entry = parsed.index.agents[0] as RegistryAgent & { homepage?: string; distribution: Record<string, unknown> };
    expect(entry.homepage).toBe('https://example.com');
    expect(entry.distribution.wasm).toEqual({ module: 'x.wasm' });
    expect((entry.distribution.npx as Record<string, unknown>).future).toBe(true);
    expect((entry.distribution.binary!['linux-x86_64'] as Record<string, unknown>).sha256).toBe('abc');
    expect(entry.distribution.binary!['linux-riscv64']).toBeDefined();
  });

  it('rejects a malformed top level with a clear message', () => {
    expect(parseRegistryIndex('nope')).toEqual({ ok: false, error: expect.stringMatching(/^The registry index is malformed: /) });
    const missing = parseRegistryIndex({ version: '1.0.0' });
    expect(missing.ok === false && missing.error).toMatch(/agents: /);
    const badVersion = parseRegistryIndex({ version: 'one', agents: [] });
    expect(badVersion.ok === false && badVersion.error).toMatch(/version: must be a semantic version/);
  });

  it('skips bad entries with a warning that names them, and keeps the rest', () => {
    const parsed = parseRegistryIndex({
      version: '1.0.0',
      agents: [
        agent(),
        agent({ id: 'Bad_ID' }),
        agent({ id: 'no-dist', distribution: {} }),
        agent({ id: 'escape', version: '1.0.0/../../x' }),
        agent({ id: 'bad-url', distribution: { binary: { 'linux-x86_64': { archive: 'file:///etc/passwd', cmd: './x' } } } }),
        agent(),
        agent({ id: 'cosmetic', authors: 'not an array', repository: 5 }),
      ],
    });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.index.agents.map((a) => a.id)).toEqual(['some-agent', 'cosmetic']);
    expect(parsed.index.agents[1].authors).toBeUndefined();
    expect(parsed.warnings).toHaveLength(5);
    expect(parsed.warnings[0]).toMatch(/^agents\[1\] \(Bad_ID\) was skipped: id: must be lowercase/);
    expect(parsed.warnings[1]).toMatch(/agents\[2\] \(no-dist\).*distribution: must name at least one/);
    expect(parsed.warnings[2]).toMatch(/agents\[3\].*version/);
    expect(parsed.warnings[3]).toMatch(/agents\[4\].*archive: must be an http\(s\) URL/);
    expect(parsed.warnings[4]).toMatch(/agents\[5\].*appears twice/);
  });

  it('rejects an index where no agent is valid', () => {
    const parsed = parseRegistryIndex({ version: '1.0.0', agents: [{ id: 1 }] });
    expect(parsed.ok).toBe(false);
  });
});

describe('resolveDistributions', () => {
  const entry = parseRegistryIndex({
    version: '1.0.0',
    agents: [
      agent({ distribution: { uvx: { package: 'p' }, npx: { package: 'n' }, binary: { 'linux-x86_64': { archive: 'https://e.com/a.zip', cmd: './a' } } } }),
    ],
  });
  const a = entry.ok ? entry.index.agents[0] : (undefined as never);

  it('prefers a binary for the target, then npx, then uvx', () => {
    expect(resolveDistributions(a, 'linux-x86_64').map((d) => d.kind)).toEqual(['binary', 'npx', 'uvx']);
    expect(resolveDistributions(a, 'darwin-aarch64').map((d) => d.kind)).toEqual(['npx', 'uvx']);
    expect(resolveDistributions(a, null).map((d) => d.kind)).toEqual(['npx', 'uvx']);
  });
});

describe('parsePackageSpec', () => {
  it('splits names and versions, scoped or not', () => {
    expect(parsePackageSpec('@google/gemini-cli@0.27.3')).toEqual({ name: '@google/gemini-cli', version: '0.27.3' });
    expect(parsePackageSpec('@scope/pkg')).toEqual({ name: '@scope/pkg', version: null });
    expect(parsePackageSpec('pyagent@latest')).toEqual({ name: 'pyagent', version: 'latest' });
    expect(parsePackageSpec('plain')).toEqual({ name: 'plain', version: null });
  });
});
