// An unfiltered category: one section per subcategory with its name, count, a few products and 'See all'.
import type { SubcategoryGroup } from '@marque/api-client';
import { useT } from '@marque/i18n';
import { TITLE_LIMITS } from '@marque/rules';
import { EAGER_CARDS, ProductCard } from '@marque/ui';
import { useId } from 'react';
import { Link } from 'wouter';
import { ListingNotFound } from '../../../lib/listing/components/ListingStatus';
import { subcategoryHref } from '../../../lib/listing/links';
import { cardCart } from '../../../lib/cart-buttons';
import { cardHeart } from '../../../lib/wishlist-heart';

export function SubcategoryGroups({ categorySlug, groups }: { categorySlug: string; groups: readonly SubcategoryGroup[] }) {
  const withProducts = groups.filter((group) => group.products.length > 0);
  if (withProducts.length === 0) return <ListingNotFound />;
  return (
    <>
      {withProducts.map((group, index) => (
        <Group key={group._id} categorySlug={categorySlug} group={group} first={index === 0} />
      ))}
    </>
  );
}

/** `first`: the first group's pictures are in the first screen, so they load at once. */
function Group({ categorySlug, group, first }: { categorySlug: string; group: SubcategoryGroup; first: boolean }) {
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
        {group.products.map((product, index) => (
          <li key={product._id}>
            <ProductCard
              product={product}
              eager={first && index < EAGER_CARDS}
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
