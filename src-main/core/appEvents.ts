import type { AppNotice, AppState } from '../../src-shared/ipc/appState';
import type { EventName, EventPayload } from '../../src-shared/ipc/contract';

export type AppListener = (name: EventName, payload: unknown) => void;

/**
 * The core's way out to the windows: contract events, the app state pushed whole (coalesced to
 * one push per tick of changes) and the short list of notices. Services get its functions
 * (`emit`, `changed`, `notice`), never the core.
 */
export class AppEvents {
  private listeners = new Set<AppListener>();
  private noticeList: AppNotice[] = [];
  private stateTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly state: () => AppState) {}

  on(listener: AppListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit<K extends EventName>(name: K, payload: EventPayload<K>): void {
    for (const listener of this.listeners) listener(name, payload);
  }

  changed(): void {
    this.stateTimer ??= setTimeout(() => {
      this.stateTimer = null;
      this.emit('app.state', this.state());
    }, 0);
  }

  notice(level: AppNotice['level'], message: string): void {
    this.noticeList = [...this.noticeList.filter((n) => n.message !== message), { id: String(Date.now() + Math.random()), level, message }].slice(-20);
    this.changed();
  }

  notices(): AppNotice[] {
    return this.noticeList;
  }
}
