// What a listing says instead of products: loading, 'Product Not Found', or why the filters or car were refused.
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

/** 'Product Not Found' for an empty listing or an unknown category; why a refused filter or car was refused. */
export function ListingNotFound({ error }: { error?: unknown }) {
  const message = useT('messages');
  const code = error instanceof ApiError ? error.code : undefined;
  const refused = code === 'filter.invalid' || code === 'vehicle.unknown' || code === 'vehicle.year_invalid';
  return (
    <p className="status-message" role="status">
      {message(refused ? code : 'catalog.not_found')}
    </p>
  );
}
