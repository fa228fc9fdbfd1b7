import { safeStorage } from 'electron';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { SecretStore } from '../store/secretStore';
import { logWarn } from '../log/mainLog';

/**
 * Secrets encrypted with Electron's `safeStorage` (Keychain on macOS, DPAPI on Windows,
 * libsecret/kwallet on Linux) and kept in `secrets.json` in the data folder as base64
 * ciphertext. Where the OS offers no encryption (`isEncryptionAvailable()` false, or Linux's
 * `basic_text` backend, which is not encryption), values are kept in memory only.
 */
export class SafeStorageSecrets implements SecretStore {
  private readonly file: string;
  private memory = new Map<string, string>();
  private cipher: Record<string, string> = {};
  readonly persistent: boolean;
  readonly description: string;

  constructor(dataDir: string) {
    this.file = join(dataDir, 'secrets.json');
    const backend = process.platform === 'linux' ? safeStorage.getSelectedStorageBackend() : undefined;
    this.persistent = safeStorage.isEncryptionAvailable() && backend !== 'basic_text';
    this.description = this.persistent ? 'encrypted with your system keychain' : 'kept in memory only (no system keychain is available)';
    if (this.persistent) {
      try {
        const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as unknown;
        if (typeof parsed === 'object' && parsed !== null) {
          this.cipher = Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
        }
      } catch (error) {
        // No secrets yet is normal; an unreadable file starts empty too, but is logged.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') logWarn(`Reading ${this.file} (starting with no stored secrets)`, error);
      }
    }
  }

  get(key: string): string | null {
    if (!this.persistent) return this.memory.get(key) ?? null;
    const value = this.cipher[key];
    if (!value) return null;
    try {
      return safeStorage.decryptString(Buffer.from(value, 'base64'));
    } catch {
      return null; // encrypted by another user or keychain: unusable
    }
  }

  set(key: string, value: string): void {
    if (!this.persistent) {
      this.memory.set(key, value);
      return;
    }
    this.cipher = { ...this.cipher, [key]: safeStorage.encryptString(value).toString('base64') };
    this.save();
  }

  delete(key: string): void {
    this.memory.delete(key);
    if (key in this.cipher) {
      const { [key]: _removed, ...rest } = this.cipher;
      this.cipher = rest;
      this.save();
    }
  }

  /** Atomically, readable by this user only (it is ciphertext, but still nobody else's business). */
  private save(): void {
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.cipher, null, 2), { mode: 0o600 });
    renameSync(tmp, this.file);
  }
}
