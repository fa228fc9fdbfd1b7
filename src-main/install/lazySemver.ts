import { createRequire } from 'node:module';

type Semver = typeof import('semver');

let loaded: Semver | undefined;

/**
 * `semver`, required when first used: the host starts and lists agents without comparing a
 * version (issue 23, cold start; guarded by core/startModules.test.ts).
 */
export function semver(): Semver {
  return (loaded ??= createRequire(import.meta.url)('semver') as Semver);
}
