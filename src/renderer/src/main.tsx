import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import './styles/app.css';
import './styles/session-layout.css';
import './styles/trace-cards.css';
import './styles/diff.css';
import './styles/sidebar.css';
import './styles/code.css';
import './styles/theme-dark.css';
import { applyStoredTheme } from './stores/theme-store';

// Before the first paint, so a dark choice never flashes light.
applyStoredTheme();

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
