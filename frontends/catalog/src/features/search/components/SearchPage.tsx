// Search results: 'Showing results for' the term, the products as a grid or (on large screens) a list,
// and the page links.
import { useT } from '@marque/i18n';
import { pageFrom, ProductResults, searchHref, useDocumentTitle } from '@marque/ui';
import { useSearch } from 'wouter';
import { useSearchProducts } from '../api/search-products';
import { useListView } from '../hooks/use-list-view';
import { ViewToggle } from './ViewToggle';
import { cardCart } from '../../../lib/cart-buttons';
import { carFilterFrom, withCar } from '../../../lib/garage/car-filter';
import { CarChip } from '../../../lib/garage/CarChip';
import { ListingNotFound } from '../../../lib/listing/components/ListingStatus';
import { cardHeart } from '../../../lib/wishlist-heart';

export function SearchPage() {
  const t = useT('listing');
  const query = new URLSearchParams(useSearch());
  const term = query.get('search') ?? '';
  const page = pageFrom(query.get('page'));
  const car = carFilterFrom(query);
  // The same titles the server puts in the page head for this route.
  useDocumentTitle(term ? t('search_title', { term }) : t('all_parts_title'));
  const results = useSearchProducts(term, page, car);
  const [view, setView] = useListView();

  return (
    <div className="listing">
      <div className="listing__top">
        <h1 className="listing__heading">
          {t('showing_results_for')}
          {term ? (
            <>
              {' '}
              <span className="listing__term">{term}</span>
            </>
          ) : null}
        </h1>
        <ViewToggle view={view} onChange={setView} />
      </div>
      <CarChip />
      <div className={view === 'list' ? 'listing__results listing__results--list' : 'listing__results'}>
        {results.status === 'error' ? (
          <ListingNotFound error={results.error} />
        ) : (
          <ProductResults
            request={results}
            page={page}
            hrefFor={(n) => withCar(searchHref(term, n), car)}
            cardActions={cardHeart}
            cardFooter={cardCart}
          />
        )}
      </div>
    </div>
  );
}
