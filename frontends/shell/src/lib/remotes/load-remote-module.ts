// Loads one exposed module of a remote, trying again a few times before settling for the fallback.
import { loadRemote } from '@module-federation/runtime';
import { ensureComposition } from './composition';
import { isFallbackModule, type RemoteModule } from './fallback-registry';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function loadRemoteModule(id: string, { attempts = 3, firstDelayMs = 300 } = {}): Promise<RemoteModule> {
  let failure: unknown = new Error(`Remote module "${id}" was not loaded`);
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    if (attempt > 0) await sleep(firstDelayMs * 2 ** (attempt - 1));
    try {
      await ensureComposition();
      const module = await loadRemote<RemoteModule>(id);
      if (module && !isFallbackModule(module)) return module;
      failure = module ?? failure;
    } catch (error) {
      failure = error;
    }
  }
  if (isFallbackModule(failure)) return failure;
  throw failure;
}
