// A subcategory: a grid of its products, filtered as the address says, with the page links.
import { useT } from '@marque/i18n';
import { ProductResults, useDocumentTitle } from '@marque/ui';
import { Link, useRoute } from 'wouter';
import { CarChip } from '../../../lib/garage/CarChip';
import { FilterSidebar } from '../../../lib/listing/components/FilterSidebar';
import { ListingLayout } from '../../../lib/listing/components/ListingLayout';
import { ListingLoading, ListingNotFound } from '../../../lib/listing/components/ListingStatus';
import { useListingAddress } from '../../../lib/listing/hooks/use-listing-address';
import { categoryHref } from '../../../lib/listing/links';
import { useSubcategoryProducts } from '../api/get-subcategory-products';
import { cardCart } from '../../../lib/cart-buttons';
import { cardHeart } from '../../../lib/wishlist-heart';

export function SubcategoryPage() {
  const t = useT('listing');
  const [, params] = useRoute('/subcategory/:categorySlug/:subcategorySlug');
  const categorySlug = params?.categorySlug ?? '';
  const subcategorySlug = params?.subcategorySlug ?? '';
  const { filters, page, car, hrefFor, setFilters } = useListingAddress();
  const listing = useSubcategoryProducts(categorySlug, subcategorySlug, filters, page, car);
  const found = listing.status === 'success' ? listing.data : undefined;
  // The same title the server puts in the page head for this route.
  useDocumentTitle(
    found ? t('subcategory_title', { subcategory: found.subcategory.name, category: found.category.name }) : undefined,
  );

  return (
    <ListingLayout
      sidebar={
        <FilterSidebar
          categorySlug={categorySlug}
          subcategorySlug={subcategorySlug}
          categoryName={found?.category.name}
          filters={filters}
          onChange={setFilters}
        />
      }
    >
      {found ? (
        <>
          <p className="listing__category">
            <Link href={categoryHref(found.category.slug)}>{found.category.name}</Link>
          </p>
          <h1 className="listing__heading">{found.subcategory.name}</h1>
        </>
      ) : null}
      <CarChip />
      {listing.status === 'loading' ? <ListingLoading /> : null}
      {listing.status === 'error' ? <ListingNotFound error={listing.error} /> : null}
      {listing.status === 'success' ? <ProductResults request={listing} page={page} hrefFor={hrefFor} cardActions={cardHeart} cardFooter={cardCart} /> : null}
    </ListingLayout>
  );
}
