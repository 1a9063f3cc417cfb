// Hands the runtime plugin, which starts before React does, the component that stands in for a missing remote.
import type { ComponentType } from 'react';

const FALLBACK = Symbol.for('marque.remoteFallback');

export type RemoteModule = { default: ComponentType };
export type FallbackModule = RemoteModule & { [FALLBACK]: true };

let fallbackComponent: ComponentType | null = null;

export function setFallbackComponent(component: ComponentType) {
  fallbackComponent = component;
}

/** The module to use in place of a remote module that failed to load, once the app registered its fallback. */
export function fallbackModule(): FallbackModule | undefined {
  return fallbackComponent ? { default: fallbackComponent, [FALLBACK]: true } : undefined;
}

export function isFallbackModule(module: unknown): module is FallbackModule {
  return typeof module === 'object' && module !== null && FALLBACK in module;
}
