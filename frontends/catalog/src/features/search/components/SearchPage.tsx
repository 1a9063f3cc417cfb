// Search results: 'Showing results for' the term, a grid of products and the page links.
import { TITLE_LIMITS } from '@marque/rules';
import { Pagination, ProductCard, searchHref, useDocumentTitle } from '@marque/ui';
import { useSearch } from 'wouter';
import { useSearchProducts } from '../api/search-products';

/** The page asked for in the address, or 1 when it is missing or not a positive whole number. */
function pageFrom(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

export function SearchPage() {
  const query = new URLSearchParams(useSearch());
  const term = query.get('search') ?? '';
  const page = pageFrom(query.get('page'));
  // The same titles the server puts in the page head for this route.
  useDocumentTitle(term ? `Search results for ${term}` : 'All parts');
  const results = useSearchProducts(term, page);

  return (
    <div className="listing">
      <h1 className="listing__heading">
        Showing results for <span className="listing__term">{term || 'all parts'}</span>
      </h1>
      {results.status === 'loading' ? (
        <p className="status-message" role="status">
          Loading…
        </p>
      ) : results.status === 'error' || results.data.results.length === 0 ? (
        <p className="status-message" role="status">
          Product Not Found
        </p>
      ) : (
        <>
          <ul className="product-grid">
            {results.data.results.map((product) => (
              <li key={product._id}>
                <ProductCard product={product} titleLimit={TITLE_LIMITS.listingCard} />
              </li>
            ))}
          </ul>
          <Pagination page={page} pages={results.data.pages} hrefFor={(n) => searchHref(term, n)} />
        </>
      )}
    </div>
  );
}
