// A car brand's page: its name, a grid of its products, newest first, and the page links.
import { useT } from '@marque/i18n';
import { brandHref, pageFrom, ProductResults, useDocumentTitle, usePageDescription } from '@marque/ui';
import { useLocation, useRoute, useSearch } from 'wouter';
import { brandArrivalState, productLinksWithState } from '../../../lib/arrival';
import { useBrand } from '../api/get-brand';
import { useBrandProducts } from '../api/get-brand-products';
import { cardCart } from '../../../lib/cart-buttons';
import { carFilterFrom, withCar } from '../../../lib/garage/car-filter';
import { CarChip } from '../../../lib/garage/CarChip';
import { ListingNotFound } from '../../../lib/listing/components/ListingStatus';
import { cardHeart } from '../../../lib/wishlist-heart';

export function BrandPage() {
  const t = useT('listing');
  const [, params] = useRoute('/brand/:brandSlug');
  const slug = params?.brandSlug ?? '';
  const query = new URLSearchParams(useSearch());
  const page = pageFrom(query.get('page'));
  const car = carFilterFrom(query);
  // Both requests start together; the page waits for the brand list only, to name the brand.
  const brand = useBrand(slug);
  const products = useBrandProducts(slug, page, car);
  const [, navigate] = useLocation();

  if (brand.status === 'loading') {
    return (
      <p className="status-message" role="status">
        {t('loading')}
      </p>
    );
  }
  // A brand the list does not know, or a list that failed to load, still gets a heading: its slug.
  const name = (brand.status === 'success' && brand.data?.name) || slug;
  return (
    <div className="listing">
      <BrandHeading name={name} />
      <CarChip />
      {/* Product links opened from here tell the product page's breadcrumb which brand the visitor came from. */}
      <div className="arrival-scope" onClickCapture={productLinksWithState(navigate, brandArrivalState(slug, name))}>
        {products.status === 'error' ? (
          <ListingNotFound error={products.error} />
        ) : (
          <ProductResults
            request={products}
            page={page}
            hrefFor={(n) => withCar(brandHref(slug, n), car)}
            cardActions={cardHeart}
            cardFooter={cardCart}
          />
        )}
      </div>
    </div>
  );
}

function BrandHeading({ name }: { name: string }) {
  const t = useT('listing');
  const heading = t('brand_heading', { name });
  // The same title and description the server puts in the page head for this route.
  useDocumentTitle(heading);
  usePageDescription(t('brand_description', { name }));
  return <h1 className="listing__heading">{heading}</h1>;
}
