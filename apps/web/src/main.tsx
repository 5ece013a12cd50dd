// First: the signed-in page's reads leave before the rest of the code is evaluated.
import './start-reads';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { preloadSignedInCode } from './app/router';
import { registerServiceWorkerOnLoad } from './lib/service-worker';
import { tokenStorage } from './lib/token-storage';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('Élément #root introuvable');

preloadSignedInCode(window.location.pathname, tokenStorage.get() !== null);

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// The service worker keeps the app usable offline and shows pushed alerts; not in development,
// where Vite serves the code itself.
if (import.meta.env.PROD) registerServiceWorkerOnLoad();
