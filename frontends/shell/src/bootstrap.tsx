// Starts React once the remotes are known.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { setFallbackComponent } from './features/remotes/fallback-registry';
import { RemoteUnavailable } from './features/remotes/RemoteUnavailable';

setFallbackComponent(RemoteUnavailable);

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
