import { join } from 'node:path';
import { readJson, writeFileAtomic } from './jsonFile';

interface TabsFile {
  open: string[];
  active: string | null;
}

/** The open tabs, their order and the active one: `sessions/tabs.json`, written atomically. */
export class TabsStore {
  private readonly file: string;
  private tabs: TabsFile = { open: [], active: null };

  constructor(dataDir: string) {
    this.file = join(dataDir, 'sessions', 'tabs.json');
  }

  load(): TabsFile & { error: string | null } {
    const { value, error } = readJson<Partial<TabsFile>>(this.file, {});
    const open = Array.isArray(value.open) ? value.open.filter((id): id is string => typeof id === 'string') : [];
    const active = typeof value.active === 'string' ? value.active : null;
    return { open, active, error: error ? `The list of open tabs was unreadable and has been reset (${error}).` : null };
  }

  current(): TabsFile {
    return { open: [...this.tabs.open], active: this.tabs.active };
  }

  set(open: string[], active: string | null): void {
    this.show(open, active);
    writeFileAtomic(this.file, JSON.stringify(this.tabs));
  }

  /** Sets the tabs shown without saving them (the saved list stays whole while a restore fills it in). */
  show(open: string[], active: string | null): void {
    this.tabs = { open: [...new Set(open)], active: active && open.includes(active) ? active : (open[0] ?? null) };
  }

  open(sessionId: string): void {
    const open = this.tabs.open.includes(sessionId) ? this.tabs.open : [...this.tabs.open, sessionId];
    this.set(open, sessionId);
  }

  close(sessionId: string): void {
    const index = this.tabs.open.indexOf(sessionId);
    const open = this.tabs.open.filter((id) => id !== sessionId);
    const active = this.tabs.active === sessionId ? (open[Math.min(index, open.length - 1)] ?? null) : this.tabs.active;
    this.set(open, active);
  }
}
