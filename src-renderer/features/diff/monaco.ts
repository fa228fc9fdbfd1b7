import { isDarkTheme } from '../../ui/theme';

/**
 * Monaco, bundled and loaded on first use (never from a CDN: the CSP allows only 'self').
 * Only the editor core, the diff editor and Monarch syntax colouring are included; the
 * language services (TypeScript, CSS, HTML, JSON) and their workers are left out because a
 * read-only diff needs none of them. The editor worker is required: it computes the diffs.
 */
export type Monaco = typeof import('monaco-editor/editor');

let loading: Promise<Monaco> | null = null;

export function loadMonaco(): Promise<Monaco> {
  loading ??= (async () => {
    const [{ default: EditorWorker }, monaco] = await Promise.all([
      import('monaco-editor/editor/editor.worker?worker'),
      import('monaco-editor/editor'),
      import('monaco-editor/features/diffEditor/register'),
      import('monaco-editor/features/codicon/register'),
      import('monaco-editor/features/find/register'),
      import('monaco-editor/features/folding/register'),
      import('monaco-editor/languages/definitions/register.all'),
    ]).then(([worker, editor]) => [worker, editor] as const);
    self.MonacoEnvironment = {
      getWorker: () => new EditorWorker(),
    };
    monaco.editor.setTheme(isDarkTheme() ? 'vs-dark' : 'vs');
    watchTheme(monaco);
    return monaco;
  })();
  return loading;
}

function watchTheme(monaco: Monaco): void {
  const apply = () => monaco.editor.setTheme(isDarkTheme() ? 'vs-dark' : 'vs');
  new MutationObserver(apply).observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
}

/** Monaco's language id for a path (its registered extensions), or plain text. */
export function languageFor(monaco: Monaco, path: string): string {
  const lower = path.toLowerCase();
  for (const language of monaco.languages.getLanguages()) {
    if (language.extensions?.some((ext) => lower.endsWith(ext.toLowerCase()))) return language.id;
    if (language.filenames?.some((name) => lower.endsWith(`/${name.toLowerCase()}`))) return language.id;
  }
  return 'plaintext';
}
