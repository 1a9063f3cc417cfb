// Loads data for a component: re-runs when `key` changes and drops answers that arrive too late.
import { useEffect, useState } from 'react';

export type RequestState<T> =
  | { status: 'loading' }
  | { status: 'success'; data: T }
  | { status: 'error'; error: unknown };

export function useRequest<T>(key: string, load: (signal: AbortSignal) => Promise<T>): RequestState<T> {
  const [settled, setSettled] = useState<{ key: string; state: RequestState<T> } | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setSettled({ key, state: { status: 'success', data } });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        console.error(error);
        setSettled({ key, state: { status: 'error', error } });
      },
    );
    return () => controller.abort();
    // `load` is a new closure each render; `key` says when it asks for something else.
  }, [key]);

  return settled?.key === key ? settled.state : { status: 'loading' };
}
