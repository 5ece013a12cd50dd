import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { parseWithoutEval } from '@vigie/contract/strict-csp';
import { App } from './app/app';
import { preloadSignedInCode } from './app/router';
import { tokenStorage } from './lib/token-storage';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('Élément #root introuvable');

parseWithoutEval();
preloadSignedInCode(window.location.pathname, tokenStorage.get() !== null);

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
