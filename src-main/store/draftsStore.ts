import { join } from 'node:path';
import { readJson, writeFileAtomic } from './jsonFile';

interface DraftsFile {
  version: 1;
  drafts: Record<string, { text: string; updatedAt: number }>;
}

/**
 * Unsent composer text per session: `sessions/drafts.json`, written atomically (temporary file,
 * then rename) and debounced, so typing costs one small write per pause, a crash loses at most
 * the last `delayMs` of typing, and a torn write can never leave a half file behind.
 */
export class DraftsStore {
  readonly file: string;
  private drafts = new Map<string, { text: string; updatedAt: number }>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Set when the file on disk was unreadable at start (reported once by the caller). */
  readonly error: string | null;

  constructor(
    dataDir: string,
    private readonly delayMs = 250,
  ) {
    this.file = join(dataDir, 'sessions', 'drafts.json');
    const { value, error } = readJson<Partial<DraftsFile>>(this.file, {});
    this.error = error;
    const drafts = value && typeof value.drafts === 'object' && value.drafts ? value.drafts : {};
    for (const [sessionId, draft] of Object.entries(drafts)) {
      if (draft && typeof draft.text === 'string' && draft.text) this.drafts.set(sessionId, { text: draft.text, updatedAt: Number(draft.updatedAt) || 0 });
    }
  }

  get(sessionId: string): string {
    return this.drafts.get(sessionId)?.text ?? '';
  }

  /** Keeps (or, for empty text, forgets) a draft; written to disk after a short pause. */
  set(sessionId: string, text: string): void {
    if (text === this.get(sessionId)) return;
    if (text) this.drafts.set(sessionId, { text, updatedAt: Date.now() });
    else this.drafts.delete(sessionId);
    this.schedule(this.delayMs);
  }

  private schedule(delayMs: number): void {
    this.timer ??= setTimeout(() => {
      try {
        this.flush();
      } catch {
        // A full disk must not take the app down: the drafts stay in memory and are tried again.
        this.schedule(Math.max(delayMs, 5000));
      }
    }, delayMs);
  }

  delete(sessionId: string): void {
    this.set(sessionId, '');
  }

  /** Writes now if anything changed (before quitting, in tests). */
  flush(): void {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = null;
    const file: DraftsFile = { version: 1, drafts: Object.fromEntries(this.drafts) };
    writeFileAtomic(this.file, JSON.stringify(file));
  }
}
