import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The browser host's access token, kept in the data folder (owner-only) so that restarting
 * `serve` on the same data folder keeps the token: open pages reconnect by themselves and the
 * person's typed text gets sent, where a fresh random token left them stuck on "Connecting…"
 * with 401s forever. Anyone who can read the file can drive the agents, hence 0600.
 */
export function hostToken(dataDir: string): string {
  const file = join(dataDir, 'host-token');
  try {
    const saved = readFileSync(file, 'utf8').trim();
    if (saved.length >= 32) {
      chmodSync(file, 0o600);
      return saved;
    }
  } catch (error) {
    // No token yet (or unreadable): make one below.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') process.stderr.write(`host-token: ${(error as Error).message}; making a new one\n`);
  }
  const token = randomBytes(24).toString('base64url');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, token, { mode: 0o600 });
  // `mode` applies only when the file is created: a short token left by hand keeps its mode otherwise.
  chmodSync(file, 0o600);
  return token;
}
