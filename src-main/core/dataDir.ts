import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where Electron's `userData` would be for this app, so both hosts share one data folder. */
export function defaultDataDir(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): string {
  const name = 'ACP Desktop';
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', name);
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), name);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), name);
}
