// Starts React once the remotes are known and the visitor's language is restored, and restores the session.
import { restoreLanguage } from '@marque/i18n';
import { startSession } from '@marque/session';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { setFallbackComponent } from './lib/remotes/fallback-registry';
import { preloadRemote } from './lib/remotes/RemoteSlot';
import { RemoteUnavailable } from './lib/remotes/RemoteUnavailable';
import { pageLoadPath, remotePageAt } from './routes';

/** How long the first render waits for the page's remote module before drawing its loading place instead. */
const FIRST_PIECES_WAIT_MS = 2500;

setFallbackComponent(RemoteUnavailable);
// A stored token is checked with the server while the page renders; the header shows the account once known.
void startSession();

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
// The page's own remote module is loaded before the first render (the server already preloaded its files), so
// the first paint is the page itself rather than a loading message it then replaces. The header's remote pieces
// (the cart, the account menu) follow the first paint in places of their own size.
// A page whose state lives only in the open tab shows, when loaded, the page its route names instead; the address
// changes before anything draws, so the browser neither draws nor loads the page it would leave at once.
const opens = pageLoadPath(location.pathname);
if (opens !== location.pathname) history.replaceState(history.state, '', opens);
const page = remotePageAt(location.pathname);
const piecesLoaded = Promise.race([
  page ? preloadRemote(page) : Promise.resolve(),
  new Promise((resolve) => setTimeout(resolve, FIRST_PIECES_WAIT_MS)),
]);
// The language is awaited before the first render, so a Hindi visitor never sees English flash by.
void Promise.all([restoreLanguage(), piecesLoaded]).then(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
