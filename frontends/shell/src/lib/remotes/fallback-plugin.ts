// Federation runtime plugin: a remote module that cannot be loaded resolves to the shell's fallback module.
import type { ModuleFederationRuntimePlugin } from '@module-federation/runtime';
import { fallbackModule } from './fallback-registry';

export default function remoteFallbackPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'marque-remote-fallback',
    errorLoadRemote({ id, error, lifecycle }) {
      // Earlier stages (manifest, shared negotiation) end up here too, as the final 'onLoad' failure of loadRemote.
      if (lifecycle !== 'onLoad') return undefined;
      console.error(`[marque] remote module "${id}" could not be loaded`, error);
      return fallbackModule();
    },
  };
}
