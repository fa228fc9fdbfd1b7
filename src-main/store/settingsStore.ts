import { existsSync, readFileSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { jsonObjectSchema, parseJson, type JsonObject } from '../../src-shared/json';
import { defaultSettings, parseSettings, type Settings } from '../../src-shared/settings';
import { writeFileAtomic } from './jsonFile';
import { logWarn } from '../log/mainLog';

export const SETTINGS_TEMPLATE = `{
  "agents": [],
  "agentOverrides": {},
  "mcpServers": [],
  "theme": "system"
}
`;

/**
 * `settings.json` in the data folder. A bad file never stops the app: the valid parts are
 * used, the problem is reported, and the file is left as the person wrote it.
 */
export class SettingsStore {
  readonly file: string;
  settings: Settings = defaultSettings;
  error: string | null = null;
  private watcher: FSWatcher | null = null;

  constructor(dataDir: string) {
    this.file = join(dataDir, 'settings.json');
    this.reload();
  }

  reload(): void {
    if (!existsSync(this.file)) {
      this.settings = defaultSettings;
      this.error = null;
      return;
    }
    const parsed = parseSettings(readFileSync(this.file, 'utf8'));
    this.settings = parsed.settings;
    this.error = parsed.error;
  }

  text(): string {
    return existsSync(this.file) ? readFileSync(this.file, 'utf8') : SETTINGS_TEMPLATE;
  }

  /** Replaces the file when the new text is valid; otherwise refuses with the reason. */
  write(text: string): string | null {
    const parsed = parseSettings(text);
    if (parsed.error) return parsed.error;
    writeFileAtomic(this.file, text.endsWith('\n') ? text : text + '\n');
    this.settings = parsed.settings;
    this.error = null;
    return null;
  }

  /** Merges a change into the current file (keeps keys this version does not know). */
  update(mutate: (json: JsonObject) => void): void {
    let json: JsonObject = {};
    try {
      if (existsSync(this.file)) json = jsonObjectSchema.parse(parseJson(readFileSync(this.file, 'utf8')));
    } catch {
      // Never overwrite a file the person is in the middle of fixing.
      throw new Error(`settings.json cannot be updated while it is malformed: ${this.error ?? 'invalid JSON'}`);
    }
    mutate(json);
    const error = this.write(JSON.stringify(json, null, 2));
    if (error) throw new Error(error);
  }

  watch(onChange: () => void): void {
    try {
      this.watcher = watch(this.file, { persistent: false }, () => {
        this.reload();
        onChange();
      });
    } catch (error) {
      // A missing file is normal (edits through the app still reload); anything else is logged.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') logWarn(`Watching ${this.file} for changes`, error);
    }
  }

  dispose(): void {
    this.watcher?.close();
  }
}
