// What a listing says instead of products: loading, 'Product Not Found', or why the filters were refused.
import { ApiError } from '@marque/api-client';
import { useT } from '@marque/i18n';

export function ListingLoading() {
  const t = useT('listing');
  return (
    <p className="status-message" role="status">
      {t('loading')}
    </p>
  );
}

/** 'Product Not Found' for an empty listing or an unknown category; 'Unknown filter value' for a refused filter. */
export function ListingNotFound({ error }: { error?: unknown }) {
  const message = useT('messages');
  const refused = error instanceof ApiError && error.code === 'filter.invalid';
  return (
    <p className="status-message" role="status">
      {message(refused ? 'filter.invalid' : 'catalog.not_found')}
    </p>
  );
}
