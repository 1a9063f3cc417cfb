// A server-paged table: a search box, optional filters, the rows of the current page and the page links. On a
// phone each row becomes a card (admin.css), every cell named by its column; the explicit table roles keep it a
// table for assistive technology when CSS displays it as blocks (browsers drop the semantics then).
import { useT } from '@marque/i18n';
import { Pagination } from '@marque/ui';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useMessageText } from '../form/messages';
import type { ListState } from './use-list';

export type Column<T> = { key: string; label: string; cell: (row: T) => ReactNode };
export type Filter = { key: string; label: string; options: { value: string; label: string }[] };

type Props<T> = {
  label: string;
  columns: Column<T>[];
  rowKey: (row: T) => string;
  state: ListState<T>;
  page: number;
  hrefFor: (page: number) => string;
  filters: Record<string, string>;
  setFilters: (changed: Record<string, string>) => void;
  /** Hide the search box (a list without a `q`). */
  search?: boolean;
  /** The parameter the search box sets (`q` unless the list searches by another). */
  searchKey?: string;
  /** What the search box asks for, when it is not a free search. */
  searchLabel?: string;
  filterControls?: Filter[];
};

export function DataTable<T>({ label, columns, rowKey, state, page, hrefFor, filters, setFilters, search = true, searchKey = 'q', searchLabel, filterControls = [] }: Props<T>) {
  const t = useT('admin');
  const messageText = useMessageText();
  const [typed, setTyped] = useState(filters[searchKey] ?? '');
  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    setFilters({ [searchKey]: typed.trim() });
  };
  return (
    <section className="admin-table" aria-label={label}>
      {search || filterControls.length > 0 ? (
        <form className="admin-table__tools" role="search" onSubmit={onSearch}>
          {search ? (
            <>
              <label className="visually-hidden" htmlFor="admin-table-search">
                {searchLabel ?? t('table.search')}
              </label>
              <input id="admin-table-search" type="search" value={typed} placeholder={searchLabel ?? t('table.search')} onChange={(e) => setTyped(e.target.value)} />
              <button type="submit" className="button button--quiet">
                {t('table.search_button')}
              </button>
            </>
          ) : null}
          {filterControls.map((filter) => (
            <label key={filter.key} className="admin-table__filter">
              {filter.label}
              <select value={filters[filter.key] ?? ''} onChange={(e) => setFilters({ [filter.key]: e.target.value })}>
                <option value="">{t('table.any')}</option>
                {filter.options.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
            </label>
          ))}
        </form>
      ) : null}
      {state.status === 'loading' ? (
        <p role="status">{t('status.loading')}</p>
      ) : state.status === 'failed' ? (
        <p className="admin-alert admin-alert--error" role="alert">
          {messageText(state.code, state.message)}
        </p>
      ) : state.page.results.length === 0 ? (
        <p role="status">{t('table.empty')}</p>
      ) : (
        <>
          <p className="admin-table__count">{t('table.count', { total: state.page.total })}</p>
          <table role="table">
            <thead role="rowgroup">
              <tr role="row">
                {columns.map((column) => (
                  <th key={column.key} scope="col" role="columnheader">
                    {column.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody role="rowgroup">
              {state.page.results.map((row) => (
                <tr key={rowKey(row)} role="row">
                  {columns.map((column) => (
                    <td key={column.key} data-label={column.label} role="cell">
                      {column.cell(row)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          <Pagination page={page} pages={state.page.pages} hrefFor={hrefFor} />
        </>
      )}
    </section>
  );
}
