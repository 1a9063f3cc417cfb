// Entry of the shell: learn where the remotes live, register them, then start the app.
// Nothing else may be imported here: shared modules (React) can only be used after this async boundary.
import { ensureComposition } from './features/remotes/composition';

ensureComposition()
  .catch((error: unknown) => {
    // The page still starts: header and footer work, remote slots show their fallback and can retry.
    console.error('[marque] the list of remotes could not be loaded', error);
  })
  .finally(() => import('./bootstrap'));
