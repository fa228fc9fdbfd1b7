import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { RegistrySource } from '../../src-shared/ipc/registryContract';
import { parseRegistryIndex, type RegistryAgent, type RegistryIndex } from '../../src-shared/registry/schema';
import { readJson, writeFileAtomic } from '../store/jsonFile';
import { describeFetchError, readLimited } from '../net/http';
import { sanitizeSvg } from './svgSanitizer';
import { logWarn } from '../log/mainLog';

export const DEFAULT_REGISTRY_URL = 'https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json';
export const REGISTRY_URL_ENV = 'ACP_DESKTOP_REGISTRY_URL';

const MAX_INDEX_BYTES = 20 * 1024 * 1024;
const MAX_ICON_BYTES = 128 * 1024;

/** The registry index the app shows, and where it came from. */
export interface RegistrySnapshot {
  index: RegistryIndex;
  source: RegistrySource;
  fetchedAt: string | null;
  checkedAt: string | null;
  url: string;
  error: string | null;
  warnings: string[];
}

/** `registry-cache.json`: the last index downloaded, with its validators for conditional requests. */
interface CacheFile {
  url: string;
  etag: string | null;
  lastModified: string | null;
  fetchedAt: string;
  checkedAt: string;
  index: unknown;
}

export interface RegistryClientOptions {
  dataDir: string;
  /** The index URL (read on every refresh: settings may change). */
  url: () => string;
  /** The folder with the bundled `registry.json`, `snapshot.json` and `icons/`. */
  bundledDir?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  now?: () => Date;
}

/** Which index URL to use: the environment variable, then the `registryUrl` setting, then the CDN. */
export function registryUrl(setting: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env[REGISTRY_URL_ENV]?.trim();
  return fromEnv || setting || DEFAULT_REGISTRY_URL;
}

/**
 * The snapshot shipped with the app: `<resources>/registry` when packaged (electron-builder's
 * `extraResources`), else `resources/registry` in the first folder above this module that has
 * one (the sources in development, `out/main/…` when built: bundled chunks sit at any depth).
 */
export function findBundledDir(): string | null {
  const candidates: string[] = [];
  const resourcesPath = (process as { resourcesPath?: string }).resourcesPath;
  if (resourcesPath) candidates.push(join(resourcesPath, 'registry'));
  for (let dir = import.meta.dirname, depth = 0; depth < 6; depth++) {
    candidates.push(join(dir, 'resources', 'registry'));
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return candidates.find((dir) => existsSync(join(dir, 'registry.json'))) ?? null;
}

/**
 * Fetches the ACP registry index with conditional requests, caches it in the data folder and
 * falls back to the last cache, then to the bundled snapshot. It also keeps the agents'
 * icons, sanitized, in `registry-icons/`.
 */
export class RegistryClient {
  private snapshot: RegistrySnapshot | null = null;
  private refreshing: Promise<RegistrySnapshot> | null = null;
  private icons = new Map<string, string>();
  /**
   * Icons on disk not sanitized yet (agent id → its files, bundled then cached: the last clean
   * one wins): sanitized when first asked for, not at start (issue 23, cold start).
   */
  private iconFiles = new Map<string, string[]>();
  private readonly cacheFile: string;
  private readonly iconsDir: string;
  private readonly bundledDir: string | null;
  private readonly fetchImpl: typeof fetch;
  /** Whether the network has been asked in this run (the first catalog view triggers it). */
  refreshedThisRun = false;

  constructor(private readonly options: RegistryClientOptions) {
    this.cacheFile = join(options.dataDir, 'registry-cache.json');
    this.iconsDir = join(options.dataDir, 'registry-icons');
    this.bundledDir = options.bundledDir ?? findBundledDir();
    this.fetchImpl = options.fetch ?? fetch;
    this.loadIcons();
  }

  private now(): string {
    return (this.options.now?.() ?? new Date()).toISOString();
  }

  /** What to show now, without touching the network. */
  current(): RegistrySnapshot {
    this.snapshot ??= this.offline(null);
    return this.snapshot;
  }

  private readCache(url: string): CacheFile | null {
    const { value } = readJson<CacheFile | null>(this.cacheFile, null);
    if (!value || typeof value !== 'object' || value.url !== url) return null;
    return value;
  }

  /** The best index without the network: the cache for this URL, else the bundled snapshot. */
  private offline(error: string | null): RegistrySnapshot {
    const url = this.options.url();
    const cache = this.readCache(url);
    if (cache) {
      const parsed = parseRegistryIndex(cache.index);
      if (parsed.ok) {
        return { index: parsed.index, source: 'cache', fetchedAt: cache.fetchedAt, checkedAt: cache.checkedAt, url, error, warnings: parsed.warnings };
      }
    }
    return this.bundled(url, error);
  }

  private bundled(url: string, error: string | null): RegistrySnapshot {
    const empty: RegistryIndex = { version: '1.0.0', agents: [] };
    if (!this.bundledDir) {
      return {
        index: empty,
        source: 'bundled',
        fetchedAt: null,
        checkedAt: null,
        url,
        error: error ?? 'No bundled registry snapshot was found.',
        warnings: [],
      };
    }
    const { value } = readJson<unknown>(join(this.bundledDir, 'registry.json'), null);
    const meta = readJson<{ takenAt?: string }>(join(this.bundledDir, 'snapshot.json'), {}).value;
    const parsed = parseRegistryIndex(value);
    return {
      index: parsed.ok ? parsed.index : empty,
      source: 'bundled',
      fetchedAt: meta.takenAt ?? null,
      checkedAt: null,
      url,
      error: error ?? (parsed.ok ? null : parsed.error),
      warnings: parsed.ok ? parsed.warnings : [],
    };
  }

  /** Asks the registry for a newer index. Never throws: a failure keeps what was shown, with the reason. */
  refresh(): Promise<RegistrySnapshot> {
    this.refreshing ??= this.doRefresh().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async doRefresh(): Promise<RegistrySnapshot> {
    this.refreshedThisRun = true;
    const url = this.options.url();
    const cache = this.readCache(url);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (cache?.etag) headers['if-none-match'] = cache.etag;
    if (cache?.lastModified) headers['if-modified-since'] = cache.lastModified;
    let response: Response;
    try {
      response = await this.fetchImpl(url, { headers, signal: AbortSignal.timeout(this.options.timeoutMs ?? 20_000) });
    } catch (error) {
      return this.fail(`Could not reach the registry at ${url}: ${describeFetchError(error, url)}`);
    }
    const checkedAt = this.now();
    if (response.status === 304 && cache) {
      void response.body?.cancel();
      writeFileAtomic(this.cacheFile, JSON.stringify({ ...cache, checkedAt }));
      const parsed = parseRegistryIndex(cache.index);
      if (parsed.ok) {
        this.snapshot = { index: parsed.index, source: 'live', fetchedAt: cache.fetchedAt, checkedAt, url, error: null, warnings: parsed.warnings };
        void this.refreshIcons();
        return this.snapshot;
      }
    }
    if (!response.ok) {
      void response.body?.cancel();
      return this.fail(`The registry at ${url} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}.`);
    }
    let json: unknown;
    try {
      const text = await readLimited(response, MAX_INDEX_BYTES);
      json = JSON.parse(text);
    } catch (error) {
      return this.fail(`The registry at ${url} sent an unreadable index: ${(error as Error).message}`);
    }
    const parsed = parseRegistryIndex(json);
    if (!parsed.ok) return this.fail(`${parsed.error} (from ${url})`);
    const entry: CacheFile = {
      url,
      etag: response.headers.get('etag'),
      lastModified: response.headers.get('last-modified'),
      fetchedAt: checkedAt,
      checkedAt,
      // The raw JSON is cached, so fields this version does not know survive for a newer one.
      index: json,
    };
    try {
      writeFileAtomic(this.cacheFile, JSON.stringify(entry));
    } catch (error) {
      logWarn('Caching the registry index (a read-only or full disk only costs the cache)', error);
    }
    this.snapshot = { index: parsed.index, source: 'live', fetchedAt: checkedAt, checkedAt, url, error: null, warnings: parsed.warnings };
    void this.refreshIcons();
    return this.snapshot;
  }

  private fail(error: string): RegistrySnapshot {
    const previous = this.snapshot;
    // Keep a live index fetched earlier in this run rather than stepping back to the cache.
    this.snapshot = previous && previous.source === 'live' && previous.url === this.options.url() ? { ...previous, error } : this.offline(error);
    return this.snapshot;
  }

  // ---------------------------------------------------------------- icons

  private loadIcons(): void {
    const load = (dir: string) => {
      let files: string[] = [];
      try {
        files = readdirSync(dir).filter((file) => file.endsWith('.svg'));
      } catch {
        return;
      }
      for (const file of files) {
        const id = file.slice(0, -4);
        this.iconFiles.set(id, [...(this.iconFiles.get(id) ?? []), join(dir, file)]);
      }
    };
    if (this.bundledDir) load(join(this.bundledDir, 'icons'));
    load(this.iconsDir);
  }

  /** Sanitized SVG markup for an agent, if one is known. */
  icon(agentId: string): string | undefined {
    const files = this.iconFiles.get(agentId);
    this.iconFiles.delete(agentId);
    for (const file of files ?? []) {
      try {
        const clean = sanitizeSvg(readFileSync(file, 'utf8'));
        if (clean) this.icons.set(agentId, clean);
      } catch (error) {
        logWarn(`Reading the cached icon ${basename(file)} (the letter is shown instead)`, error);
      }
    }
    return this.icons.get(agentId);
  }

  /** Downloads every agent's icon (`icon`, or `<base>/<id>.svg`), sanitizes it and keeps it on disk. */
  async refreshIcons(onChange?: () => void): Promise<void> {
    const snapshot = this.current();
    const queue = [...snapshot.index.agents];
    let changed = false;
    const worker = async () => {
      for (let agent = queue.shift(); agent; agent = queue.shift()) {
        const clean = await this.fetchIcon(agent, snapshot.url);
        if (clean && clean !== this.icon(agent.id)) {
          this.icons.set(agent.id, clean);
          changed = true;
          try {
            mkdirSync(this.iconsDir, { recursive: true });
            writeFileAtomic(join(this.iconsDir, `${agent.id}.svg`), clean);
          } catch (error) {
            logWarn(`Caching the icon of ${agent.id} (kept in memory only)`, error);
          }
        }
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    if (changed) {
      onChange?.();
      this.onIconsChanged?.();
    }
  }

  /** Called when icons arrived after a refresh. */
  onIconsChanged: (() => void) | null = null;

  private async fetchIcon(agent: RegistryAgent, indexUrl: string): Promise<string | null> {
    const url = iconUrl(agent, indexUrl);
    if (!url) return null;
    try {
      const response = await this.fetchImpl(url, { signal: AbortSignal.timeout(10_000) });
      if (!response.ok) {
        void response.body?.cancel();
        return null;
      }
      return sanitizeSvg(await readLimited(response, MAX_ICON_BYTES));
    } catch (error) {
      logWarn(`Fetching the icon of ${agent.id} from ${url} (the letter is shown instead)`, error);
      return null;
    }
  }
}

/**
 * The URL of an agent's icon: the entry's `icon` resolved against the index URL, or the
 * registry's `<base>/<id>.svg` convention when the entry has none. Only http(s).
 */
export function iconUrl(agent: RegistryAgent, indexUrl: string): string | null {
  try {
    const url = new URL(agent.icon ?? `${agent.id}.svg`, indexUrl);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
