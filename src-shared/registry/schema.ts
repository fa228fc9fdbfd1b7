import { z } from 'zod';
import { describeIssues } from '../settings';
import { isPlatformTarget, type PlatformTarget } from './platform';

/**
 * The ACP registry index (`registry.json`) and its agent entries, after
 * https://agentclientprotocol.com/rfds/acp-agent-registry and the registry's
 * `registry.schema.json` / `agent.schema.json`.
 *
 * Every object keeps the fields it does not know (a newer registry may add some): they are
 * carried through the cache untouched. A bad entry is dropped with a warning instead of
 * hiding the whole catalog; only a bad top level rejects the index.
 */

const stringMap = z.record(z.string(), z.string());

/** `^[a-z][a-z0-9-]*$` from the schema; it also becomes a folder name, so it is capped. */
export const agentIdSchema = z
  .string()
  .max(100)
  .regex(/^[a-z][a-z0-9-]*$/, 'must be lowercase letters, digits and hyphens, starting with a letter');

/**
 * The schema only asks for a `x.y.z` prefix. The version also names the install folder, so
 * anything after the prefix is limited to semver's pre-release/build characters (no slashes).
 */
export const agentVersionSchema = z
  .string()
  .max(100)
  .regex(/^[0-9]+\.[0-9]+\.[0-9]+[0-9A-Za-z.+-]*$/, 'must be a semantic version such as 1.2.3');

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

/** One `binary` target: an archive to download and the command inside it. */
export const binaryTargetSchema = z.looseObject({
  archive: httpUrl,
  cmd: z.string().min(1).max(1000),
  args: z.array(z.string()).optional(),
  env: stringMap.optional(),
});

/** `npx` / `uvx`: a package (with an optional version) run by the package manager. */
export const packageDistributionSchema = z.looseObject({
  package: z.string().min(1).max(300),
  args: z.array(z.string()).optional(),
  env: stringMap.optional(),
});

export const distributionSchema = z
  .looseObject({
    binary: z.record(z.string(), binaryTargetSchema).optional(),
    npx: packageDistributionSchema.optional(),
    uvx: packageDistributionSchema.optional(),
  })
  .refine((value) => Object.keys(value).length > 0, 'must name at least one distribution (binary, npx or uvx)');

/** Cosmetic fields of the wrong type are dropped rather than hiding the agent. */
const cosmetic = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

export const registryAgentSchema = z.looseObject({
  id: agentIdSchema,
  name: z.string().min(1).max(200),
  version: agentVersionSchema,
  description: z.string().min(1).max(5000),
  repository: cosmetic(z.string().max(2000)),
  authors: cosmetic(z.array(z.string().max(500))),
  license: cosmetic(z.string().max(200)),
  icon: cosmetic(z.string().max(2000)),
  distribution: distributionSchema,
});

/** The index's top level; entries are checked one by one in `parseRegistryIndex`. */
const indexShape = z.looseObject({
  version: z.string().regex(/^[0-9]+\.[0-9]+\.[0-9]+/, 'must be a semantic version such as 1.0.0'),
  agents: z.array(z.unknown()),
  extensions: z.array(z.unknown()).optional(),
});

export type BinaryTarget = z.output<typeof binaryTargetSchema>;
export type PackageDistribution = z.output<typeof packageDistributionSchema>;
export type RegistryAgent = z.output<typeof registryAgentSchema>;

/** A validated index. `extensions` are kept as they came (this app does not use them yet). */
export interface RegistryIndex {
  version: string;
  agents: RegistryAgent[];
  extensions?: unknown[];
  [key: string]: unknown;
}

export type ParsedIndex = { ok: true; index: RegistryIndex; warnings: string[] } | { ok: false; error: string };

/** Validates a registry index. Never throws; the error names where the problem is. */
export function parseRegistryIndex(json: unknown): ParsedIndex {
  const top = indexShape.safeParse(json);
  if (!top.success) return { ok: false, error: `The registry index is malformed: ${describeIssues(top.error)}` };
  const warnings: string[] = [];
  const agents: RegistryAgent[] = [];
  const seen = new Set<string>();
  top.data.agents.forEach((entry, index) => {
    const parsed = registryAgentSchema.safeParse(entry);
    const rawId = typeof entry === 'object' && entry !== null ? (entry as { id?: unknown }).id : undefined;
    const label = `agents[${index}]${typeof rawId === 'string' ? ` (${rawId.slice(0, 100)})` : ''}`;
    if (!parsed.success) {
      warnings.push(`${label} was skipped: ${describeIssues(parsed.error)}`);
      return;
    }
    if (seen.has(parsed.data.id)) {
      warnings.push(`${label} was skipped: the id "${parsed.data.id}" appears twice`);
      return;
    }
    seen.add(parsed.data.id);
    agents.push(parsed.data);
  });
  if (agents.length === 0 && top.data.agents.length > 0) {
    return { ok: false, error: `The registry index is malformed: none of its ${top.data.agents.length} agents is valid (${warnings[0]})` };
  }
  return { ok: true, index: { ...top.data, agents }, warnings };
}

/** The distribution kinds this app can install, in the order it prefers them. */
export const DISTRIBUTION_KINDS = ['binary', 'npx', 'uvx'] as const;
export type DistributionKind = (typeof DISTRIBUTION_KINDS)[number];

/** Every distribution kind an agent lists, known or not (unknown ones are shown, not installed). */
export function distributionKinds(agent: RegistryAgent): string[] {
  return Object.keys(agent.distribution);
}

export type ResolvedDistribution = { kind: 'binary'; target: PlatformTarget; spec: BinaryTarget } | { kind: 'npx' | 'uvx'; spec: PackageDistribution };

/**
 * The distributions of an agent that can run on a target, best first: a binary build for the
 * target needs no runtime, so it comes before `npx` and `uvx`.
 */
export function resolveDistributions(agent: RegistryAgent, target: PlatformTarget | null): ResolvedDistribution[] {
  const out: ResolvedDistribution[] = [];
  const binary = agent.distribution.binary;
  if (target && binary && isPlatformTarget(target) && binary[target]) out.push({ kind: 'binary', target, spec: binary[target] });
  if (agent.distribution.npx) out.push({ kind: 'npx', spec: agent.distribution.npx });
  if (agent.distribution.uvx) out.push({ kind: 'uvx', spec: agent.distribution.uvx });
  return out;
}

/**
 * Splits an npm package spec into name and version: `@scope/pkg@1.2.3` → `@scope/pkg`, `1.2.3`;
 * `pkg` → `pkg`, null. A tag or range (`latest`, `^1`) is returned as the version as written.
 */
export function parsePackageSpec(spec: string): { name: string; version: string | null } {
  const at = spec.indexOf('@', spec.startsWith('@') ? 1 : 0);
  if (at <= 0) return { name: spec, version: null };
  return { name: spec.slice(0, at), version: spec.slice(at + 1) || null };
}
