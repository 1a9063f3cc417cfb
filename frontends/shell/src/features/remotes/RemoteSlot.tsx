// A place on the page filled by a remote module; if the remote is missing or breaks, only this place says so.
import { useT } from '@marque/i18n';
import { ErrorBoundary } from '@marque/ui';
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

export function RemoteSlot({ id }: { id: string }) {
  const t = useT('common');
  const [attempt, setAttempt] = useState(0);
  const retry = useCallback(() => {
    loaded.delete(id);
    setAttempt((n) => n + 1);
  }, [id]);
  // `attempt` is what makes a retry build a new lazy component.
  const Remote = useMemo(() => lazyRemote(id), [id, attempt]);
  const slot = useMemo(() => ({ remoteId: id, retry }), [id, retry]);

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
