// A server-paged list whose page, size, search and filters live in the address (`?page=2&q=brake`), so a reload,
// the back button and a shared link show the same rows.
import { useCallback, useEffect, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { Answer } from '@marque/api-client';
import { adminCall, type AdminCall, type AdminRequest } from '../api/calls';

export const PAGE_SIZE = 20;

/** What every list call answers (`?page=&size=`): one page of rows, the pages of that size, and every match. */
export type Paged<T> = { results: T[]; pages: number; total: number };

/** The document's list calls: the GETs that answer a page. */
type ListCall = {
  [C in AdminCall]: C extends `GET ${string}` ? (Answer<C> extends Paged<unknown> ? C : never) : never;
}[AdminCall];

/** A row of a list call's page. */
export type RowOf<C extends ListCall> = Answer<C> extends Paged<infer R> ? R : never;

export type ListState<T> =
  | { status: 'loading' }
  | { status: 'failed'; code?: string; message: string | null }
  | { status: 'done'; page: Paged<T> };

/** The address's query as a plain object. */
export function useQuery(): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(useSearch()));
}

export function useList<C extends ListCall>(
  call: C,
  options: { path?: AdminRequest<C>['path']; filters?: readonly string[]; size?: number; searchKey?: string } = {},
) {
  type T = RowOf<C>;
  const query = useQuery();
  const [location, navigate] = useLocation();
  const page = Math.max(1, Number.parseInt(query.page ?? '1', 10) || 1);
  const size = options.size ?? PAGE_SIZE;
  // The search box's parameter: `q`, or the one a list searches by (the audit trail's `subject`).
  const filterKeys = [options.searchKey ?? 'q', ...(options.filters ?? [])];
  const filters = Object.fromEntries(filterKeys.map((key) => [key, query[key] ?? '']));
  const [state, setState] = useState<ListState<T>>({ status: 'loading' });
  const [reloads, setReloads] = useState(0);
  const key = JSON.stringify([call, options.path, page, size, filters, reloads]);

  useEffect(() => {
    const controller = new AbortController();
    setState({ status: 'loading' });
    void adminCall(call, { path: options.path, query: { page, size, ...filters }, signal: controller.signal }).then((answer) => {
      if (controller.signal.aborted) return;
      setState(
        answer.ok
          ? { status: 'done', page: answer.body as Paged<T> }
          : { status: 'failed', code: answer.code, message: answer.message },
      );
    });
    return () => controller.abort();
    // `key` holds everything the request depends on.
  }, [key]);

  /** The address of another page of the same list. */
  const hrefFor = useCallback(
    (n: number) => {
      const next = new URLSearchParams({ ...query, page: String(n) });
      return `${location}?${next.toString()}`;
    },
    [location, query],
  );

  /** New search or filter values: back to the first page. */
  const setFilters = useCallback(
    (changed: Record<string, string>) => {
      const next = new URLSearchParams();
      for (const [k, v] of Object.entries({ ...query, ...changed })) if (v && k !== 'page') next.set(k, v);
      const text = next.toString();
      navigate(text ? `${location}?${text}` : location);
    },
    [location, navigate, query],
  );

  return { state, page, filters, hrefFor, setFilters, reload: () => setReloads((n) => n + 1) };
}
