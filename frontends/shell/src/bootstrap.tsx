// Starts React once the remotes are known and the visitor's language is restored, and restores the session.
import { restoreLanguage } from '@marque/i18n';
import { startSession } from '@marque/session';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { setFallbackComponent } from './features/remotes/fallback-registry';
import { RemoteUnavailable } from './features/remotes/RemoteUnavailable';

setFallbackComponent(RemoteUnavailable);
// A stored token is checked with the server while the page renders; the header shows the account once known.
void startSession();

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
// Awaited before the first render, so a Hindi visitor never sees English flash by.
void restoreLanguage().then(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
