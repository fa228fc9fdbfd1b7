import { useEffect, useRef, useState } from 'react';
import { readWorkspaceFile } from './actions';
import { languageFor, loadMonaco } from './monaco';
import { followSize } from './followSize';

/** A read-only Monaco view of a workspace file, scrolled to and highlighting a line. */
export function FileViewer({ sessionId, path, line }: { sessionId: string; path: string; line: number | null }) {
  const host = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string>('Loading…');

  useEffect(() => {
    let disposed = false;
    const cleanup: (() => void)[] = [];
    setError(null);
    setInfo('Loading…');
    Promise.all([readWorkspaceFile(sessionId, path), loadMonaco()])
      .then(([file, monaco]) => {
        if (disposed || !host.current) return;
        const model = monaco.editor.createModel(file.text, languageFor(monaco, path));
        const editor = monaco.editor.create(host.current, {
          model,
          readOnly: true,
          automaticLayout: false,
          minimap: { enabled: false },
          scrollBeyondLastLine: false,
          fontSize: 12.5,
          ariaLabel: `${path} (read-only)`,
        });
        if (line) {
          editor.revealLineInCenter(line);
          editor.setSelection({ startLineNumber: line, startColumn: 1, endLineNumber: line, endColumn: model.getLineMaxColumn(line) });
          editor.createDecorationsCollection([
            { range: { startLineNumber: line, startColumn: 1, endLineNumber: line, endColumn: 1 }, options: { isWholeLine: true, className: 'focus-line' } },
          ]);
        }
        setInfo(`${model.getLineCount()} lines${file.truncated ? ' (truncated)' : ''}${line ? ` · line ${line}` : ''}`);
        const stopFollowing = followSize(host.current, editor);
        cleanup.push(() => {
          stopFollowing();
          editor.dispose();
          model.dispose();
        });
      })
      .catch((e: Error) => !disposed && setError(e.message));
    return () => {
      disposed = true;
      cleanup.forEach((fn) => fn());
    };
  }, [sessionId, path, line]);

  return (
    <div className="file-viewer" role="region" aria-label={`File ${path}`}>
      <div className="file-viewer-head">
        <code title={path}>{path}</code>
        <span className="muted small">{error ? '' : `Read-only · ${info}`}</span>
      </div>
      {error ? (
        <p role="alert" className="form-error">
          {error}
        </p>
      ) : (
        <div ref={host} className="file-editor" />
      )}
    </div>
  );
}
