// Search results: 'Showing results for' the term, a grid of products and the page links.
import { pageFrom, ProductResults, searchHref, useDocumentTitle } from '@marque/ui';
import { useSearch } from 'wouter';
import { useSearchProducts } from '../api/search-products';

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
      <ProductResults request={results} page={page} hrefFor={(n) => searchHref(term, n)} />
    </div>
  );
}
