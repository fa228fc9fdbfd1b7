import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { applyTheme } from './ui/theme';
import { startStore } from './store/start';
import { startAttention } from './features/sessions/attention';
import './styles.css';

// Before the first paint, so a dark OS never flashes the light palette.
applyTheme('system');
startStore();
startAttention();
// The Markdown renderer is in the session view's chunk: fetched and warmed once the page is idle.
const warm = () => void import('./features/markdown/Markdown').then((m) => m.warmMarkdown());
if (typeof requestIdleCallback === 'function') requestIdleCallback(warm, { timeout: 2000 });
else setTimeout(warm, 200);
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
