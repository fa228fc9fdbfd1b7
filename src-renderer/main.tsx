import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { applyTheme } from './ui/theme';
import { startStore } from './store/start';
import { startAttention } from './features/sessions/attention';
import { warmMarkdown } from './features/markdown/Markdown';
import './styles.css';

// Before the first paint, so a dark OS never flashes the light palette.
applyTheme('system');
startStore();
startAttention();
warmMarkdown();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
