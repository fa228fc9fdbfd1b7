import { StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { applyTheme } from './ui/theme';
import { startStore } from './store/start';
import { startAttention } from './features/sessions/attention';
import { dismissFirstPaint, dismissFirstPaintWhenOtherShown } from './features/chat/firstPaint';
import { dismissShellPaint } from './features/sessions/shellPaint';
import './styles.css';

const FIRST_PAINT_AT_MOST_MS = 8000;

// Before the first paint, so a dark OS never flashes the light palette.
applyTheme('system');
startStore();
startAttention();
// The first paint served with the page goes once another session (or none) is shown, and in any
// case after a while: it must never stand in for the app (features/chat/firstPaint.ts).
dismissFirstPaintWhenOtherShown();
setTimeout(() => {
  dismissFirstPaint();
  dismissShellPaint();
}, FIRST_PAINT_AT_MOST_MS);
// The Markdown renderer is in the session view's chunk: fetched and warmed once the page is idle.
const warm = () => void import('./features/markdown/Markdown').then((m) => m.warmMarkdown());
if (typeof requestIdleCallback === 'function') requestIdleCallback(warm, { timeout: 2000 });
else setTimeout(warm, 200);
// The first commit in this task: it draws the cached app state (store/cachedAppState.ts) before
// any answer from the host can replace it, which the served shell relies on (features/sessions/shellPaint.ts).
const root = createRoot(document.getElementById('root')!);
flushSync(() =>
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
