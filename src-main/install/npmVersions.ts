import { semver } from './lazySemver';

/**
 * The catalog pins exact npm versions, and a bundled snapshot can pin one npm no longer serves
 * (unpublished or deprecated). npm then fails with ETARGET / "No matching version found".
 */
export function isMissingVersion(npmOutput: string): boolean {
  return /ETARGET|No matching version found|notarget/i.test(npmOutput);
}

/**
 * The version to offer instead of a missing pinned one: the newest that `^pinned` allows (the
 * same line, the catalog's intent), else the newest stable release of the package. Never a
 * prerelease unless the pin was one.
 */
export function fallbackVersion(pinned: string, available: readonly string[]): { version: string; sameLine: boolean } | null {
  const valid = available.filter((version) => semver().valid(version));
  const wanted = semver().valid(pinned) ? `^${pinned}` : null;
  const includePrerelease = Boolean(semver().prerelease(pinned));
  const sameLine = wanted ? semver().maxSatisfying(valid, wanted, { includePrerelease }) : null;
  if (sameLine && sameLine !== pinned) return { version: sameLine, sameLine: true };
  const stable = valid.filter((version) => !semver().prerelease(version));
  const newest = semver().maxSatisfying(stable.length ? stable : valid, '*', { includePrerelease: !stable.length });
  return newest && newest !== pinned ? { version: newest, sameLine: false } : null;
}

/** `npm view <name> versions --json` answers one string for a single version, else a list. */
export function parseVersionList(json: string): string[] {
  try {
    const parsed: unknown = JSON.parse(json);
    if (typeof parsed === 'string') return [parsed];
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    // A long list whose start was cut (the output keeps its tail): take the quoted versions left.
    return [...json.matchAll(/"(\d+\.\d+\.\d+[^"]*)"/g)].map((match) => match[1]);
  }
}

/** npm's error text without the lines npm prints on every run (an unknown config, the debug-log path). */
export function npmErrorText(output: string): string {
  const lines = output.split(/\r?\n/).filter((line) => line.trim() && !/Unknown user config|A complete log of this run can be found in/.test(line));
  // npm can print the same line twice (stderr warning and error summary): keep each once.
  return [...new Set(lines)].slice(-15).join('\n');
}
