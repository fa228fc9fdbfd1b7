import { useEffect, useState } from 'react';
import type { MainLog } from '../../../src-shared/ipc/logContract';
import { openMainLog, readMainLog } from './actions';

/** The main process's log (`<data>/logs/main.log`): its path and last lines; the desktop app can also open the file. */
export function MainLogSection() {
  const [log, setLog] = useState<MainLog | null>(null);
  const load = async () => setLog((await readMainLog()) ?? null);
  useEffect(() => {
    void load();
  }, []);
  return (
    <section aria-labelledby="info-main-log">
      <div className="dialog-head">
        <h3 id="info-main-log">App log (main process)</h3>
        <span>
          {log?.canOpen && (
            <button type="button" onClick={() => void openMainLog()}>
              Open log file
            </button>
          )}{' '}
          <button type="button" onClick={() => void load()}>
            Refresh app log
          </button>
        </span>
      </div>
      <p className="muted small">
        File: <code aria-label="App log file">{log ? (log.path ?? 'none (this process keeps its log in memory)') : '…'}</code>
      </p>
      <pre className="stderr" aria-label="App log" tabIndex={0}>
        {log === null ? 'Loading…' : log.lines.length ? log.lines.join('\n') : '(empty)'}
      </pre>
    </section>
  );
}
