// Loads data for a component: re-runs when `key` changes and drops answers that arrive too late.
import { useEffect, useRef, useState } from 'react';

export type RequestState<T> =
  | { status: 'loading' }
  | { status: 'success'; data: T }
  | { status: 'error'; error: unknown };

/**
 * `initial`, when given, is asked once, at the first render: data already in the page (the server's embedded
 * answer) is drawn at once and not loaded again for that key.
 */
export function useRequest<T>(
  key: string,
  load: (signal: AbortSignal) => Promise<T>,
  initial?: () => T | undefined,
): RequestState<T> {
  const [settled, setSettled] = useState<{ key: string; state: RequestState<T> } | null>(() => {
    const data = initial?.();
    return data === undefined ? null : { key, state: { status: 'success', data } };
  });
  // The key the first render's data answered: its load is skipped once.
  const answered = useRef(settled?.key);

  useEffect(() => {
    if (answered.current === key) {
      answered.current = undefined;
      return undefined;
    }
    answered.current = undefined;
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
