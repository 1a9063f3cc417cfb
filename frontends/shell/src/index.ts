// Entry of the shell: learn where the remotes live, register them, then start the app.
// Nothing shared may be imported here: shared modules (React) can only be used after this async boundary.
// `@marque/session/early` is plain code bundled here (not the shared session): it asks GET /api/user for a stored
// token now, while the libraries download, and the session takes that answer when it starts.
import { startEarlyUserCheck } from '@marque/session/early';
import { ensureComposition } from './lib/remotes/composition';

startEarlyUserCheck();
ensureComposition()
  .catch((error: unknown) => {
    // The page still starts: header and footer work, remote slots show their fallback and can retry.
    console.error('[marque] the list of remotes could not be loaded', error);
  })
  .finally(() => import('./bootstrap'));
