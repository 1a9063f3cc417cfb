// Page links for every listing: Previous hidden on the first page, Next hidden on the last.
import { useT } from '@marque/i18n';
import { Link } from 'wouter';

/** The page numbers to show: the first, the last and two on each side of the current one; null is a gap. */
export function pageWindow(page: number, pages: number): Array<number | null> {
  const shown: Array<number | null> = [];
  for (let n = 1; n <= pages; n += 1) {
    if (n === 1 || n === pages || Math.abs(n - page) <= 2) shown.push(n);
    else if (shown[shown.length - 1] !== null) shown.push(null);
  }
  return shown;
}

const toTop = () => window.scrollTo({ top: 0 });

export function Pagination({ page, pages, hrefFor }: { page: number; pages: number; hrefFor: (page: number) => string }) {
  const t = useT('common');
  if (pages <= 1) return null;
  return (
    <nav className="pagination" aria-label={t('pagination.label')}>
      <ul>
        {page > 1 ? (
          <li>
            <Link href={hrefFor(page - 1)} onClick={toTop} rel="prev">
              {t('pagination.previous')}
            </Link>
          </li>
        ) : null}
        {pageWindow(page, pages).map((n, index) =>
          n === null ? (
            <li key={`gap-${index}`} className="pagination__gap" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={n}>
              <Link href={hrefFor(n)} onClick={toTop} aria-current={n === page ? 'page' : undefined} aria-label={t('pagination.page', { page: n })}>
                {n}
              </Link>
            </li>
          ),
        )}
        {page < pages ? (
          <li>
            <Link href={hrefFor(page + 1)} onClick={toTop} rel="next">
              {t('pagination.next')}
            </Link>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}
