// One page of a product listing (search, brand, later category): the grid, the page links,
// 'Product Not Found' when there is nothing or the call failed, and a status while loading.
import { useT } from '@marque/i18n';
import { TITLE_LIMITS } from '@marque/rules';
import type { ReactNode } from 'react';
import { EAGER_CARDS, ProductCard, type ProductCardProduct } from './ProductCard';
import { Pagination } from './Pagination';
import type { RequestState } from './useRequest';

export type ResultsPage = { results: ProductCardProduct[]; pages: number };

/** The page asked for in the address, or 1 when it is missing or not a positive whole number. */
export function pageFrom(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

export function ProductResults({
  request,
  page,
  hrefFor,
  cardActions,
  cardFooter,
}: {
  request: RequestState<ResultsPage>;
  page: number;
  hrefFor: (page: number) => string;
  /** What each card shows over its picture (the wishlist heart). */
  cardActions?: (product: ProductCardProduct) => ReactNode;
  /** What each card shows under its price (the cart button). */
  cardFooter?: (product: ProductCardProduct) => ReactNode;
}) {
  const t = useT('common');
  const messages = useT('messages');
  if (request.status === 'loading') {
    return (
      <p className="status-message" role="status">
        {t('status.loading')}
      </p>
    );
  }
  if (request.status === 'error' || request.data.results.length === 0) {
    return (
      <p className="status-message" role="status">
        {messages('catalog.not_found')}
      </p>
    );
  }
  return (
    <>
      <ul className="product-grid">
        {request.data.results.map((product, index) => (
          <li key={product._id}>
            <ProductCard
              product={product}
              headingLevel={2}
              eager={index < EAGER_CARDS}
              titleLimit={TITLE_LIMITS.listingCard}
              actions={cardActions?.(product)}
              footer={cardFooter?.(product)}
            />
          </li>
        ))}
      </ul>
      <Pagination page={page} pages={request.data.pages} hrefFor={hrefFor} />
    </>
  );
}
