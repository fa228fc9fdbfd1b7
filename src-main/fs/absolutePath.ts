import { posix, win32 } from 'node:path';

/**
 * Why `path`, which an agent sent in a client method, is not an absolute path on `platform`,
 * or null when it is. ACP requires absolute paths; a relative one would be resolved against the
 * app process's own working folder (not the session's), so it is refused, never guessed.
 * On Windows a path must also name its drive or server: `\x` and `C:x` depend on the app's
 * current drive and folder, although `path.win32.isAbsolute('\\x')` calls the first absolute.
 */
export function notAbsoluteReason(path: string, platform: NodeJS.Platform = process.platform): string | null {
  if (path === '') return 'it is empty';
  if (platform === 'win32') {
    if (/^[A-Za-z]:[\\/]/.test(path) || /^[\\/]{2}[^\\/]/.test(path)) return null;
    return win32.isAbsolute(path) ? 'it names no drive (like C:\\) or server' : 'it is relative';
  }
  return posix.isAbsolute(path) ? null : 'it is relative';
}
