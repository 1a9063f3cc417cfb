// An unfiltered category: one section per subcategory with its name, count, a few products and 'See all'.
import type { SubcategoryGroup } from '@marque/api-client';
import { useT } from '@marque/i18n';
import { TITLE_LIMITS } from '@marque/rules';
import { ProductCard } from '@marque/ui';
import { useId } from 'react';
import { Link } from 'wouter';
import { ListingNotFound } from '../../listing/components/ListingStatus';
import { subcategoryHref } from '../../listing/links';
import { cardCart } from '../../../lib/cart-buttons';
import { cardHeart } from '../../../lib/wishlist-heart';

export function SubcategoryGroups({ categorySlug, groups }: { categorySlug: string; groups: readonly SubcategoryGroup[] }) {
  const withProducts = groups.filter((group) => group.products.length > 0);
  if (withProducts.length === 0) return <ListingNotFound />;
  return (
    <>
      {withProducts.map((group) => (
        <Group key={group._id} categorySlug={categorySlug} group={group} />
      ))}
    </>
  );
}

function Group({ categorySlug, group }: { categorySlug: string; group: SubcategoryGroup }) {
  const t = useT('listing');
  const headingId = useId();
  return (
    <section className="listing-group" aria-labelledby={headingId}>
      <div className="listing-group__head">
        <h2 id={headingId} className="listing-group__name">
          {group.name} <span className="listing-group__count">({group.count})</span>
        </h2>
        <Link href={subcategoryHref(categorySlug, group.slug)} className="listing-group__all">
          {t('see_all')}
        </Link>
      </div>
      <ul className="product-grid">
        {group.products.map((product) => (
          <li key={product._id}>
            <ProductCard
              product={product}
              titleLimit={TITLE_LIMITS.listingCard}
              actions={cardHeart(product)}
              footer={cardCart(product)}
            />
          </li>
        ))}
      </ul>
    </section>
  );
}
