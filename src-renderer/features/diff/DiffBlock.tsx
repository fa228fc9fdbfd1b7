import { useEffect, useRef, useState } from 'react';
import { useStore } from '../../store';
import { languageFor, loadMonaco } from './monaco';
import { StaticDiff } from './StaticDiff';
import { DiffTitle } from './DiffTitle';
import { followSize } from './followSize';

const MAX_HEIGHT = 420;
const LINE_HEIGHT = 19;

export interface DiffBlockProps {
  /** `${toolCallId}:${path}`: what the models belong to (one pair per mounted block). */
  modelKey: string;
  path: string;
  /** null: a new file. */
  oldText: string | null;
  newText: string;
  /** The agent deleted the file (`deleted: true`, rfds-diff-delete). */
  deleted?: boolean;
  /**
   * Created when the browser is idle after the block came into view, rather than as soon as it
   * did (the Review panel, a checkpoint review): not on the path of the click that showed it.
   */
  eager?: boolean;
  /**
   * Show a static diff (plain lines, no editor) until the person opens it: a transcript row
   * costs what it shows, and scrolling a long session mounts no editors.
   */
  staticFirst?: boolean;
}

/**
 * A Monaco diff of one file: side by side or inline (a global preference), new files and
 * deletions included. Models exist only while the block is mounted *and* has been on
 * screen; they are disposed on unmount. Unchanged regions are folded so a long file with
 * a small change stays short, and Monaco renders only the visible lines of a large one.
 */
export function DiffBlock({ modelKey, path, oldText, newText, deleted, eager, staticFirst }: DiffBlockProps) {
  const layout = useStore((s) => s.diffLayout);
  const host = useRef<HTMLDivElement>(null);
  const [opened, setOpened] = useState(!staticFirst);
  // A card that starts asking for permission after its diff arrived (the tool call first, then
  // the request) shows the editor from then on: what is approved is seen in full.
  if (!staticFirst && !opened) setOpened(true);
  // Eager blocks wait for the browser to be idle: creating a Monaco diff editor costs tens of
  // milliseconds (issue 23).
  const [visible, setVisible] = useState(false);
  // Eager blocks too wait until they are in view: the Review panel's diff below a long list of
  // files cost every session shown a Monaco editor (~200 ms of the page's CPU, its renders
  // after every tab switch) that nobody saw (issue 23, round 8).
  const [seen, setSeen] = useState(false);
  const [height, setHeight] = useState(() => Math.min(MAX_HEIGHT, Math.max(3, lineCount(newText), lineCount(oldText ?? '')) * LINE_HEIGHT + 8));
  const [stats, setStats] = useState<{ added: number; removed: number } | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  // A created or deleted file has only one side: shown inline (an empty half would waste the space).
  const oneSided = oldText === null || Boolean(deleted);
  const editorRef = useRef<import('monaco-editor/editor').editor.IStandaloneDiffEditor | null>(null);

  useEffect(() => {
    if (!eager || visible || !seen) return;
    return whenIdle(() => setVisible(true));
  }, [eager, visible, seen]);

  useEffect(() => {
    if (!opened || visible || seen || !host.current) return;
    const observer = new IntersectionObserver((records) => {
      if (records.some((r) => r.isIntersecting)) {
        if (eager) setSeen(true);
        else setVisible(true);
        observer.disconnect();
      }
    });
    observer.observe(host.current);
    return () => observer.disconnect();
  }, [visible, opened, seen, eager]);

  useEffect(() => {
    if (!visible || !host.current) return;
    let disposed = false;
    const cleanup: (() => void)[] = [];
    loadMonaco()
      .then((monaco) => {
        if (disposed || !host.current) return;
        const language = languageFor(monaco, path);
        if (oneSided) {
          // A created or deleted file: its one side in a plain read-only editor, every line
          // marked added or removed (a diff against nothing shows a spurious empty line).
          const text = oldText === null ? newText : (oldText ?? '');
          const model = monaco.editor.createModel(text, language);
          const single = monaco.editor.create(host.current, {
            model,
            readOnly: true,
            automaticLayout: false,
            minimap: { enabled: false },
            scrollBeyondLastLine: false,
            renderLineHighlight: 'none',
            scrollbar: { alwaysConsumeMouseWheel: false, verticalScrollbarSize: 10, horizontalScrollbarSize: 10 },
            fontSize: 12.5,
            lineHeight: LINE_HEIGHT,
            ariaLabel: `${deleted ? 'Deleted' : 'New'} file ${path}`,
          });
          const lines = textLines(text);
          const added = oldText === null;
          single.createDecorationsCollection([
            {
              range: { startLineNumber: 1, startColumn: 1, endLineNumber: Math.max(1, lines), endColumn: 1 },
              options: {
                isWholeLine: true,
                className: added ? 'one-sided-added' : 'one-sided-removed',
                linesDecorationsClassName: added ? 'one-sided-plus' : 'one-sided-minus',
              },
            },
          ]);
          setStats(added ? { added: lines, removed: 0 } : { added: 0, removed: lines });
          setHeight(Math.min(MAX_HEIGHT, Math.max(LINE_HEIGHT * 2, single.getContentHeight() + 2)));
          const stopFollowing = followSize(host.current, single);
          cleanup.push(() => {
            stopFollowing();
            single.dispose();
            model.dispose();
          });
          return;
        }
        const original = monaco.editor.createModel(oldText ?? '', language);
        const modified = monaco.editor.createModel(deleted ? '' : newText, language);
        const editor = monaco.editor.createDiffEditor(host.current, {
          readOnly: true,
          originalEditable: false,
          automaticLayout: false,
          renderSideBySide: !oneSided && useStore.getState().diffLayout === 'side-by-side',
          useInlineViewWhenSpaceIsLimited: false,
          minimap: { enabled: false },
          scrollBeyondLastLine: false,
          renderOverviewRuler: false,
          hideUnchangedRegions: { enabled: true, contextLineCount: 3, minimumLineCount: 6, revealLineCount: 20 },
          scrollbar: { alwaysConsumeMouseWheel: false, verticalScrollbarSize: 10, horizontalScrollbarSize: 10 },
          fontSize: 12.5,
          lineHeight: LINE_HEIGHT,
          ariaLabel: `Diff of ${path}`,
        });
        // Our own view model: Monaco 0.57 never disposes the one `setModel({original, modified})`
        // makes (its ref count stays above zero), so its pending diff is never cancelled and,
        // once the models are gone, rejects with "no diff result available".
        const viewModel = editor.createViewModel({ original, modified });
        editor.setModel(viewModel);
        editorRef.current = editor;
        const fit = () => {
          const content = Math.max(editor.getOriginalEditor().getContentHeight(), editor.getModifiedEditor().getContentHeight());
          setHeight(Math.min(MAX_HEIGHT, Math.max(LINE_HEIGHT * 2, content + 2)));
        };
        const subscriptions = [
          editor.getModifiedEditor().onDidContentSizeChange(fit),
          editor.getOriginalEditor().onDidContentSizeChange(fit),
          editor.onDidUpdateDiff(() => {
            let added = 0;
            let removed = 0;
            for (const change of editor.getLineChanges() ?? []) {
              if (change.modifiedEndLineNumber >= change.modifiedStartLineNumber && change.modifiedEndLineNumber > 0)
                added += change.modifiedEndLineNumber - change.modifiedStartLineNumber + 1;
              if (change.originalEndLineNumber >= change.originalStartLineNumber && change.originalEndLineNumber > 0)
                removed += change.originalEndLineNumber - change.originalStartLineNumber + 1;
            }
            setStats({ added, removed });
            fit();
          }),
        ];
        const stopFollowing = followSize(host.current, editor);
        cleanup.push(() => {
          stopFollowing();
          subscriptions.forEach((s) => s.dispose());
          // Detach and cancel first: disposing the models under a live diff editor (or while a diff
          // is being computed) makes Monaco throw "TextModel got disposed…" / "no diff result available".
          editor.setModel(null);
          viewModel.dispose();
          editor.dispose();
          original.dispose();
          modified.dispose();
          editorRef.current = null;
        });
      })
      .catch((error: Error) => setFailed(error.message));
    return () => {
      disposed = true;
      cleanup.forEach((fn) => fn());
    };
  }, [visible, modelKey, path, oldText, newText, deleted, oneSided]);

  useEffect(() => {
    editorRef.current?.updateOptions({ renderSideBySide: !oneSided && layout === 'side-by-side' });
  }, [layout, oneSided]);

  const label = deleted ? 'deleted' : oldText === null ? 'new file' : null;
  if (!opened) {
    return (
      <StaticDiff
        path={path}
        oldText={deleted ? (oldText ?? '') : oldText}
        newText={deleted ? '' : newText}
        label={label}
        onOpen={() => {
          setOpened(true);
          setVisible(true);
        }}
      />
    );
  }
  return (
    <div className="diff-block" role="group" aria-label={`Diff of ${path}`}>
      <div className="diff-head">
        <DiffTitle path={path} label={label} stats={stats} />
        {!oneSided && (
          <button
            type="button"
            className="link-button"
            aria-pressed={layout === 'inline'}
            onClick={() => useStore.setState({ diffLayout: layout === 'inline' ? 'side-by-side' : 'inline' })}
          >
            {layout === 'inline' ? 'Side by side' : 'Inline'}
          </button>
        )}
      </div>
      {failed ? (
        <pre className="diff-fallback">{newText}</pre>
      ) : (
        <div ref={host} className="diff-editor" style={{ height }} data-loaded={Boolean(editorRef.current) || undefined}>
          {!visible && <span className="muted small diff-placeholder">Diff loads when shown…</span>}
        </div>
      )}
    </div>
  );
}

function lineCount(text: string): number {
  let count = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) count++;
  return count;
}

/** Lines of a file's text, not counting the empty line after a final newline. */
function textLines(text: string): number {
  if (!text) return 0;
  return lineCount(text) - (text.endsWith('\n') ? 1 : 0);
}

/** Runs `fn` once the browser is idle after painting (at most 300 ms later); returns a cancel. */
function whenIdle(fn: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(fn, { timeout: 300 });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(fn, 0);
  return () => clearTimeout(id);
}
