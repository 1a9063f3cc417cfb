// A place on the page filled by a remote module; if the remote is missing or breaks, only this place says so.
// A quiet slot (a small place such as the header's account menu) shows nothing while loading or broken.
import { useT } from '@marque/i18n';
import { ErrorBoundary, useFirstPaintDone } from '@marque/ui';
import { lazy, Suspense, useCallback, useMemo, useState, type ComponentType, type LazyExoticComponent } from 'react';
import { isFallbackModule } from './fallback-registry';
import { loadRemoteModule } from './load-remote-module';
import { RemoteSlotContext } from './remote-slot-context';
import { RemoteUnavailable } from './RemoteUnavailable';

// React.lazy remembers its first outcome, so a failed load is dropped here and a retry gets a new component.
const loaded = new Map<string, LazyExoticComponent<ComponentType>>();

function lazyRemote(id: string): LazyExoticComponent<ComponentType> {
  let component = loaded.get(id);
  if (!component) {
    const created = lazy(async () => {
      try {
        const module = await loadRemoteModule(id);
        if (isFallbackModule(module) && loaded.get(id) === created) loaded.delete(id);
        return module;
      } catch (error) {
        if (loaded.get(id) === created) loaded.delete(id);
        throw error;
      }
    });
    component = created;
    loaded.set(id, component);
  }
  return component;
}

// Modules loaded before the first render (the page's own, the header's cart), drawn at once: a slot that suspended
// would show its fallback, and React holds back what replaces a fallback for a moment (its Suspense throttle).
const preloaded = new Map<string, ComponentType>();

/** Loads a remote module ahead of the first render; on failure the slot loads it itself (retries, fallback). */
export async function preloadRemote(id: string): Promise<void> {
  try {
    const module = await loadRemoteModule(id, { attempts: 1 });
    if (!isFallbackModule(module)) preloaded.set(id, module.default);
  } catch {
    // Left to the slot.
  }
}

const Nothing = () => null;
const quietLoaded = new Map<string, LazyExoticComponent<ComponentType>>();

/**
 * A small place (the header's cart and account menu): nothing while loading, nothing when the remote is missing or
 * breaks. Its module is asked for after the page's first paint, which it must not delay.
 */
function QuietSlot({ id }: { id: string }) {
  const painted = useFirstPaintDone();
  let Remote: ComponentType | undefined = preloaded.get(id) ?? quietLoaded.get(id);
  if (!Remote && !painted) return null;
  if (!Remote) {
    const created = lazy(async () => {
      try {
        const module = await loadRemoteModule(id);
        return isFallbackModule(module) ? { default: Nothing } : module;
      } catch (error) {
        console.error(`[marque] "${id}" could not be loaded`, error);
        return { default: Nothing };
      }
    });
    quietLoaded.set(id, created);
    Remote = created;
  }
  return (
    <ErrorBoundary fallback={() => null} onError={(error) => console.error(`[marque] "${id}" failed`, error)}>
      <Suspense fallback={null}>
        <Remote />
      </Suspense>
    </ErrorBoundary>
  );
}

export function RemoteSlot({ id, quiet = false }: { id: string; quiet?: boolean }) {
  const t = useT('common');
  const [attempt, setAttempt] = useState(0);
  const retry = useCallback(() => {
    loaded.delete(id);
    setAttempt((n) => n + 1);
  }, [id]);
  // `attempt` is what makes a retry build a new lazy component.
  const Remote = useMemo(() => (attempt === 0 ? preloaded.get(id) : undefined) ?? lazyRemote(id), [id, attempt]);
  const slot = useMemo(() => ({ remoteId: id, retry }), [id, retry]);

  if (quiet) return <QuietSlot id={id} />;

  return (
    <RemoteSlotContext.Provider value={slot}>
      <div className="remote-slot">
        <ErrorBoundary
          key={`${id}#${attempt}`}
          fallback={() => <RemoteUnavailable />}
          onError={(error) => console.error(`[marque] "${id}" failed`, error)}
        >
          <Suspense
            fallback={
              <p className="status-message" role="status">
                {t('status.loading')}
              </p>
            }
          >
            <Remote />
          </Suspense>
        </ErrorBoundary>
      </div>
    </RemoteSlotContext.Provider>
  );
}

