// A category: its products grouped by subcategory, or one flat page of them once any filter is chosen.
import { useT } from '@marque/i18n';
import { ProductResults, useDocumentTitle } from '@marque/ui';
import { useRoute } from 'wouter';
import { CarChip } from '../../../lib/garage/CarChip';
import { FilterSidebar } from '../../../lib/listing/components/FilterSidebar';
import { ListingLayout } from '../../../lib/listing/components/ListingLayout';
import { ListingLoading, ListingNotFound } from '../../../lib/listing/components/ListingStatus';
import { useListingAddress } from '../../../lib/listing/hooks/use-listing-address';
import { useCategoryProducts } from '../api/get-category-products';
import { SubcategoryGroups } from './SubcategoryGroups';
import { cardCart } from '../../../lib/cart-buttons';
import { cardHeart } from '../../../lib/wishlist-heart';

export function CategoryPage() {
  const t = useT('listing');
  const [, params] = useRoute('/category/:categorySlug');
  const slug = params?.categorySlug ?? '';
  const { filters, page, car, hrefFor, setFilters } = useListingAddress();
  const listing = useCategoryProducts(slug, filters, page, car);
  const name = listing.status === 'success' ? listing.data.category.name : undefined;
  // The same title the server puts in the page head for this route.
  useDocumentTitle(name ? t('category_title', { name }) : undefined);

  return (
    <ListingLayout
      sidebar={<FilterSidebar categorySlug={slug} categoryName={name} filters={filters} onChange={setFilters} />}
    >
      {name ? <h1 className="listing__heading">{name}</h1> : null}
      <CarChip />
      {listing.status === 'loading' ? <ListingLoading /> : null}
      {listing.status === 'error' ? <ListingNotFound error={listing.error} /> : null}
      {listing.status === 'success' && listing.data.view === 'grouped' ? (
        <SubcategoryGroups categorySlug={slug} groups={listing.data.subcategory} />
      ) : null}
      {listing.status === 'success' && listing.data.view === 'flat' ? (
        <ProductResults request={listing} page={page} hrefFor={hrefFor} cardActions={cardHeart} cardFooter={cardCart} />
      ) : null}
    </ListingLayout>
  );
}
