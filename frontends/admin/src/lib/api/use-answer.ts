// One GET's answer for a page (with a way to ask again), e.g. a product for its editor.
import type { Answer } from '@marque/api-client';
import { useEffect, useState } from 'react';
import { adminCall, type AdminCall, type AdminRequest } from './calls';

export type AnswerState<T> =
  | { status: 'loading' }
  | { status: 'failed'; code?: string; message: string | null; httpStatus: number }
  | { status: 'done'; body: T };

export function useAnswer<C extends AdminCall & `GET ${string}`>(call: C, request: Pick<AdminRequest<C>, 'path' | 'query'> = {}, skip = false) {
  const [state, setState] = useState<AnswerState<Answer<C>>>({ status: 'loading' });
  const [reloads, setReloads] = useState(0);
  const key = JSON.stringify([call, request, reloads, skip]);
  useEffect(() => {
    if (skip) return;
    const controller = new AbortController();
    void adminCall(call, { ...request, signal: controller.signal }).then((answer) => {
      if (controller.signal.aborted) return;
      setState(
        answer.ok
          ? { status: 'done', body: answer.body }
          : { status: 'failed', code: answer.code, message: answer.message, httpStatus: answer.status },
      );
    });
    return () => controller.abort();
    // `key` holds everything the request depends on.
  }, [key]);
  return { state, reload: () => setReloads((n) => n + 1), setState };
}
