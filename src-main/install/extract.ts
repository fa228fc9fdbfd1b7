import { spawn } from 'node:child_process';
import { closeSync, createWriteStream, lstatSync, mkdirSync, openSync, readSync, readdirSync, readlinkSync, realpathSync, symlinkSync } from 'node:fs';
import { dirname, join, posix, relative, resolve, sep, isAbsolute } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createRequire } from 'node:module';
import type * as Tar from 'tar';
import type Yauzl from 'yauzl';

// Required at the first archive extracted, not when the host starts (issue 23, cold start).
const lazyRequire = createRequire(import.meta.url);
let tarModule: typeof Tar | undefined;
let yauzlModule: typeof Yauzl | undefined;
const tar = (): typeof Tar => (tarModule ??= lazyRequire('tar') as typeof Tar);
const yauzl = (): typeof Yauzl => (yauzlModule ??= lazyRequire('yauzl') as typeof Yauzl);
import { cancelled, describeFsError, InstallError } from './download';

/**
 * Safe extraction of agent archives (`.zip`, `.tar`, `.tar.gz`/`.tgz`, and `.tar.bz2`/`.tar.xz`
 * where the `bzip2`/`xz` tools exist). Every entry is checked before anything is written, and
 * the whole archive is refused when one entry would land outside the target folder: `..`
 * segments (zip-slip), absolute paths, drive letters, symbolic or hard links whose target is
 * outside, devices. After extraction every link is resolved once more against the real folder.
 */

export type ArchiveKind = 'zip' | 'tar' | 'tar.gz' | 'tar.bz2' | 'tar.xz';

const MAX_ENTRIES = 200_000;
const MAX_TOTAL_BYTES = 8 * 1024 * 1024 * 1024;

/** Identifies an archive by its first bytes (a URL's extension can lie). */
export function sniffArchive(file: string): ArchiveKind | null {
  const fd = openSync(file, 'r');
  const head = Buffer.alloc(512);
  let read = 0;
  try {
    read = readSync(fd, head, 0, 512, 0);
  } finally {
    closeSync(fd);
  }
  if (read >= 4 && head[0] === 0x50 && head[1] === 0x4b && (head[2] === 3 || head[2] === 5) && (head[3] === 4 || head[3] === 6)) return 'zip';
  if (read >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'tar.gz';
  if (read >= 3 && head.toString('latin1', 0, 3) === 'BZh') return 'tar.bz2';
  if (read >= 6 && head[0] === 0xfd && head.toString('latin1', 1, 6) === '7zXZ\0') return 'tar.xz';
  if (read >= 262 && head.toString('latin1', 257, 262) === 'ustar') return 'tar';
  return null;
}

/** Whether a URL names an archive by its extension (anything else may be a bare executable). */
export function looksLikeArchiveUrl(url: string): boolean {
  const path = url.split(/[?#]/)[0].toLowerCase();
  return /\.(zip|tar|tgz|tar\.gz|tbz2?|tar\.bz2|txz|tar\.xz)$/.test(path);
}

/**
 * The safe relative path for an archive entry, or an error message. `''` means the root itself.
 * Backslashes are refused rather than guessed at: on Windows they are separators.
 */
export function checkEntryPath(name: string): { path: string } | { error: string } {
  if (name.includes('\0')) return { error: 'contains a NUL character' };
  if (name.includes('\\')) return { error: 'contains a backslash' };
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return { error: 'is an absolute path' };
  const parts = name.split('/').filter((part) => part !== '' && part !== '.');
  if (parts.includes('..')) return { error: 'climbs out of the folder with ".."' };
  return { path: parts.join('/') };
}

/** Checks where a link would point: inside the folder, given the link's own place in it. */
export function checkLinkTarget(entryPath: string, target: string, kind: 'symlink' | 'hardlink'): string | null {
  if (!target) return 'has an empty link target';
  if (target.includes('\0') || target.includes('\\')) return 'has a link target with a NUL or backslash';
  if (target.startsWith('/') || /^[A-Za-z]:/.test(target)) return `links to the absolute path ${target}`;
  // A symlink resolves against its own folder; a hard link's name is relative to the archive root.
  const joined = kind === 'symlink' ? posix.join(posix.dirname(entryPath), target) : posix.normalize(target);
  if (joined === '..' || joined.startsWith('../')) return `links outside the folder (${target})`;
  return null;
}

function refuse(name: string, why: string): InstallError {
  return new InstallError(`The archive was refused: the entry "${name.slice(0, 200)}" ${why}. Nothing was installed.`, 'unsafe');
}

export interface ExtractOptions {
  signal?: AbortSignal;
}

/** Extracts `file` into the (empty) folder `dest`. On any failure the caller removes `dest`. */
export async function extractArchive(file: string, dest: string, kind: ArchiveKind, options: ExtractOptions = {}): Promise<void> {
  mkdirSync(dest, { recursive: true });
  if (options.signal?.aborted) throw cancelled();
  if (kind === 'zip') await extractZip(file, dest, options);
  else await extractTar(file, dest, kind, options);
  if (options.signal?.aborted) throw cancelled();
  verifyTree(dest);
}

// ------------------------------------------------------------------ zip

function openZip(file: string): Promise<Yauzl.ZipFile> {
  return new Promise((resolvePromise, reject) => {
    // decodeStrings: false, so names are checked here (with a clear message) instead of by yauzl.
    yauzl().open(file, { lazyEntries: true, decodeStrings: false, validateEntrySizes: true, autoClose: true }, (error, zip) => {
      if (error || !zip) reject(new InstallError(`The download is not a readable zip archive: ${error?.message ?? 'unknown error'}`, 'archive'));
      else resolvePromise(zip);
    });
  });
}

function entryName(entry: Yauzl.Entry): string {
  // With decodeStrings: false, `fileName` is this same Buffer (typed as the decoded string).
  return yauzl().getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, false);
}

async function extractZip(file: string, dest: string, options: ExtractOptions): Promise<void> {
  // First pass: check every entry before writing anything.
  const checked = await new Promise<number>((resolvePromise, reject) => {
    void openZip(file).then((zip) => {
      let count = 0;
      let total = 0;
      zip.on('error', (error: Error) => reject(new InstallError(`The zip archive is damaged: ${error.message}`, 'archive')));
      zip.on('end', () => resolvePromise(count));
      zip.on('entry', (entry: Yauzl.Entry) => {
        const name = entryName(entry);
        const checkedPath = checkEntryPath(name);
        if ('error' in checkedPath) {
          zip.close();
          return reject(refuse(name, checkedPath.error));
        }
        const mode = zipMode(entry);
        if ((mode & 0o170000) === 0o120000) {
          // The link target is the entry's content: read it to check it.
          zip.openReadStream(entry, (error, stream) => {
            if (error || !stream) return reject(new InstallError(`The zip archive is damaged: ${error?.message}`, 'archive'));
            const chunks: Buffer[] = [];
            stream.on('data', (chunk: Buffer) => chunks.push(chunk));
            stream.on('error', (e: Error) => reject(new InstallError(`The zip archive is damaged: ${e.message}`, 'archive')));
            stream.on('end', () => {
              const why = checkLinkTarget(checkedPath.path, Buffer.concat(chunks).toString('utf8'), 'symlink');
              if (why) {
                zip.close();
                return reject(refuse(name, why));
              }
              zip.readEntry();
            });
          });
        } else {
          if ((mode & 0o170000) !== 0 && (mode & 0o170000) !== 0o100000 && (mode & 0o170000) !== 0o040000) {
            zip.close();
            return reject(refuse(name, 'is a device or other special file'));
          }
          count += 1;
          total += entry.uncompressedSize;
          if (count > MAX_ENTRIES || total > MAX_TOTAL_BYTES) {
            zip.close();
            return reject(new InstallError('The archive is too large to extract (too many entries or bytes).', 'archive'));
          }
          zip.readEntry();
        }
      });
      zip.readEntry();
    }, reject);
  });
  void checked;

  // Second pass: write files and folders; links last, so nothing is ever written through one.
  const links: { path: string; target: string }[] = [];
  await new Promise<void>((resolvePromise, reject) => {
    void openZip(file).then((zip) => {
      const fail = (error: unknown) => {
        zip.close();
        reject(error);
      };
      zip.on('error', (error: Error) => reject(new InstallError(`The zip archive is damaged: ${error.message}`, 'archive')));
      zip.on('end', () => resolvePromise());
      zip.on('entry', (entry: Yauzl.Entry) => {
        if (options.signal?.aborted) return fail(cancelled());
        const checkedPath = checkEntryPath(entryName(entry));
        if ('error' in checkedPath) return fail(refuse(entryName(entry), checkedPath.error));
        const target = join(dest, ...checkedPath.path.split('/'));
        const mode = zipMode(entry);
        const isDir = entryName(entry).endsWith('/') || (mode & 0o170000) === 0o040000;
        try {
          if (isDir || checkedPath.path === '') {
            mkdirSync(target, { recursive: true });
            return zip.readEntry();
          }
          mkdirSync(dirname(target), { recursive: true });
        } catch (error) {
          return fail(describeFsError(error, dest));
        }
        zip.openReadStream(entry, (error, stream) => {
          if (error || !stream) return fail(new InstallError(`The zip archive is damaged: ${error?.message}`, 'archive'));
          if ((mode & 0o170000) === 0o120000) {
            const chunks: Buffer[] = [];
            stream.on('data', (chunk: Buffer) => chunks.push(chunk));
            stream.on('error', (e: Error) => fail(new InstallError(`The zip archive is damaged: ${e.message}`, 'archive')));
            stream.on('end', () => {
              links.push({ path: target, target: Buffer.concat(chunks).toString('utf8') });
              zip.readEntry();
            });
            return;
          }
          const permissions = mode & 0o777 ? mode & 0o777 : 0o644;
          pipeline(stream, createWriteStream(target, { mode: permissions | 0o600 })).then(
            () => zip.readEntry(),
            (e: unknown) =>
              fail(
                (e as NodeJS.ErrnoException)?.syscall
                  ? describeFsError(e, dest)
                  : new InstallError(`The zip archive is damaged: ${(e as Error).message}`, 'archive'),
              ),
          );
        });
      });
      zip.readEntry();
    }, reject);
  });
  for (const link of links) {
    try {
      symlinkSync(link.target, link.path);
    } catch (error) {
      throw describeFsError(error, dest);
    }
  }
}

/** Unix permission bits of a zip entry (0 when it was made on a system that has none). */
function zipMode(entry: Yauzl.Entry): number {
  const madeBy = entry.versionMadeBy >> 8;
  // 3: Unix, 19: macOS (OS X). Others (0: DOS/Windows) carry no Unix mode.
  return madeBy === 3 || madeBy === 19 ? (entry.externalFileAttributes >>> 16) & 0xffff : 0;
}

// ------------------------------------------------------------------ tar

const DECOMPRESSORS: Partial<Record<ArchiveKind, string>> = { 'tar.bz2': 'bzip2', 'tar.xz': 'xz' };

/** Feeds the (decompressed) tar bytes into a tar stream; bzip2 and xz go through the system's tools. */
async function feedTar(file: string, kind: ArchiveKind, sink: NodeJS.WritableStream, signal?: AbortSignal): Promise<void> {
  const tool = DECOMPRESSORS[kind];
  if (!tool) {
    const { createReadStream } = await import('node:fs');
    await pipeline(createReadStream(file), sink as NodeJS.WritableStream & import('node:stream').Writable, { signal });
    return;
  }
  const child = spawn(tool, ['-dc', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()).slice(-2000));
  const exited = new Promise<number | null>((resolvePromise, reject) => {
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new InstallError(`This ${kind} archive needs the "${tool}" program, which is not installed on this machine.`, 'archive')
          : error,
      ),
    );
    child.on('close', resolvePromise);
  });
  const onAbort = () => child.kill();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await Promise.all([
      pipeline(child.stdout, sink as NodeJS.WritableStream & import('node:stream').Writable),
      exited.then((code) => {
        if (code !== 0 && !signal?.aborted)
          throw new InstallError(`The ${kind} archive could not be decompressed: ${stderr.trim() || `${tool} exited with ${code}`}`, 'archive');
      }),
    ]);
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

async function extractTar(file: string, dest: string, kind: ArchiveKind, options: ExtractOptions): Promise<void> {
  // First pass: list and check every entry.
  let problem: InstallError | null = null;
  let count = 0;
  let total = 0;
  const links = new Set<string>();
  const lister = new (tar().Parser)({
    strict: true,
    onReadEntry: (entry) => {
      entry.resume();
      if (problem) return;
      const name = entry.path;
      const checkedPath = checkEntryPath(name);
      if ('error' in checkedPath) return void (problem = refuse(name, checkedPath.error));
      // A link resolved on disk may point elsewhere than it reads: never write through one.
      const parts = checkedPath.path.split('/');
      for (let i = 1; i < parts.length; i++) {
        if (links.has(parts.slice(0, i).join('/'))) return void (problem = refuse(name, 'would be written through a link'));
      }
      if (entry.type === 'SymbolicLink') links.add(checkedPath.path);
      if (entry.type === 'SymbolicLink' || entry.type === 'Link') {
        const why = checkLinkTarget(checkedPath.path, entry.linkpath ?? '', entry.type === 'SymbolicLink' ? 'symlink' : 'hardlink');
        if (why) return void (problem = refuse(name, why));
      } else if (!['File', 'OldFile', 'ContiguousFile', 'Directory', 'GNUDumpDir'].includes(entry.type)) {
        return void (problem = refuse(name, `is a ${entry.type} entry, which an agent does not need`));
      }
      count += 1;
      total += entry.size ?? 0;
      if (count > MAX_ENTRIES || total > MAX_TOTAL_BYTES)
        problem ??= new InstallError('The archive is too large to extract (too many entries or bytes).', 'archive');
    },
  });
  try {
    await feedTar(file, kind, lister, options.signal);
  } catch (error) {
    if (options.signal?.aborted) throw cancelled();
    if (error instanceof InstallError) throw error;
    throw new InstallError(`The download is not a readable ${kind} archive: ${(error as Error).message}`, 'archive');
  }
  if (problem) throw problem;
  if (count === 0) throw new InstallError(`The ${kind} archive is empty or damaged.`, 'archive');

  // Second pass: extract. node-tar also refuses '..', absolute paths and writing through links.
  const warnings: string[] = [];
  const unpack = new (tar().Unpack)({
    cwd: dest,
    strict: true,
    preservePaths: false,
    preserveOwner: false,
    onwarn: (_code, message) => warnings.push(String(message)),
  });
  try {
    await feedTar(file, kind, unpack, options.signal);
  } catch (error) {
    if (options.signal?.aborted) throw cancelled();
    if (error instanceof InstallError) throw error;
    if ((error as NodeJS.ErrnoException)?.syscall) throw describeFsError(error, dest);
    throw new InstallError(`The ${kind} archive could not be extracted: ${(error as Error).message}`, 'archive');
  }
  if (warnings.length) throw new InstallError(`The ${kind} archive could not be extracted cleanly: ${warnings.slice(0, 3).join('; ')}`, 'archive');
}

// ------------------------------------------------------------------ final check

/** Resolves every link in the extracted tree against the real folder: none may point outside. */
export function verifyTree(dest: string): void {
  const root = realpathSync.native(dest);
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) {
        let real: string;
        try {
          real = realpathSync.native(path);
        } catch {
          // Dangling: judge the target as written (already checked lexically while listing).
          const target = readlinkSync(path);
          real = isAbsolute(target) ? target : resolve(dirname(path), target);
        }
        const rel = relative(root, real);
        if (rel === '..' || rel.startsWith('..' + sep) || isAbsolute(rel)) {
          throw refuse(relative(dest, path).split(sep).join('/'), `links outside the folder (${readlinkSync(path)})`);
        }
      } else if (stat.isDirectory()) {
        walk(path);
      }
    }
  };
  walk(dest);
}
