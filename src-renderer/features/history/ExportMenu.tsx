import { useRef } from 'react';
import { run } from '../../store';
import { exportSession } from './actions';

/** "Export" in a session's header: the transcript as Markdown, or the raw event log (for bug reports). */
export function ExportMenu({ sessionId }: { sessionId: string }) {
  const menu = useRef<HTMLDetailsElement>(null);
  const exportAs = async (format: 'markdown' | 'jsonl') => {
    if (menu.current) menu.current.open = false;
    await run(exportSession(sessionId, format));
  };
  return (
    <details ref={menu} className="export-menu">
      <summary title="Export this session">Export</summary>
      <div className="export-menu-items" role="group" aria-label="Export session">
        <button type="button" onClick={() => void exportAs('markdown')}>
          Markdown
        </button>
        <button type="button" onClick={() => void exportAs('jsonl')}>
          Raw event log
        </button>
      </div>
    </details>
  );
}
