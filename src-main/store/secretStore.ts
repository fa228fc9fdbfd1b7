import { logWarn } from '../log/mainLog';
/**
 * Where sign-in secrets live (API keys for `env_var` authentication). The Electron host plugs
 * in `SafeStorageSecrets` (src-main/electron/safeStorageSecrets.ts: encrypted with the OS
 * keychain through `safeStorage`, kept on disk); the plain-Node browser host keeps them in
 * memory only, so nothing secret is ever written in clear text.
 */
export interface SecretStore {
  get(key: string): string | null;
  set(key: string, value: string): void;
  delete(key: string): void;
  /** Whether values survive a restart of the app (false: memory only). */
  readonly persistent: boolean;
  /** One line for the UI: where a secret entered now will be kept. */
  readonly description: string;
}

export class InMemorySecretStore implements SecretStore {
  private values = new Map<string, string>();
  readonly persistent = false;
  readonly description = 'kept in memory only until the app quits';

  get(key: string): string | null {
    return this.values.get(key) ?? null;
  }

  set(key: string, value: string): void {
    this.values.set(key, value);
  }

  delete(key: string): void {
    this.values.delete(key);
  }
}

/** The key under which an agent's sign-in environment (`env_var` method values) is kept. */
export function agentEnvKey(agentId: string): string {
  return `agent-env:${agentId}`;
}

/** An agent's stored sign-in environment; a damaged entry reads as empty. */
export function readAgentEnv(store: SecretStore, agentId: string): Record<string, string> {
  return readStringMap(store, agentEnvKey(agentId), `the stored sign-in values of ${agentId}`);
}

/** A stored `{ name: value }` map of strings (an agent's environment or headers); a damaged entry reads as empty. */
export function readStringMap(store: SecretStore | undefined, key: string, what: string): Record<string, string> {
  const text = store?.get(key);
  if (!text) return {};
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch (error) {
    logWarn(`Reading ${what} (damaged: read as empty)`, error);
    return {};
  }
}

/** Stores a `{ name: value }` map of strings under `key`; an empty one removes the key. */
export function writeStringMap(store: SecretStore, key: string, values: Record<string, string>): void {
  if (Object.keys(values).length === 0) store.delete(key);
  else store.set(key, JSON.stringify(values));
}

export function writeAgentEnv(store: SecretStore, agentId: string, env: Record<string, string>): void {
  writeStringMap(store, agentEnvKey(agentId), env);
}
