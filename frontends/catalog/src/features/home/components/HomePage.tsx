// Home: the rotating banner, the headline, the filter bar, recently added and hot-selling products,
// and the strip of car brands (the lists one frame after the first). Opening home clears a pending purchase product and the selected address.
import { clearOnHome } from '@marque/cart';
import { useT } from '@marque/i18n';
import { TITLE_LIMITS } from '@marque/rules';
import { ProductCard, searchHref, useDocumentTitle, useFirstPaintDone } from '@marque/ui';
import { useEffect } from 'react';
import { Link } from 'wouter';
import { useCategories } from '../../../lib/api/get-categories';
import { useHotSelling } from '../api/get-hot-selling';
import { useNewProducts } from '../api/get-new-products';
import { useOemBrands } from '../../../lib/api/get-oem-brands';
import { BrandStrip } from './BrandStrip';
import { FilterBar } from './FilterBar';
import { HomeBanner } from './HomeBanner';
import { cardCart } from '../../../lib/cart-buttons';
import { cardHeart } from '../../../lib/wishlist-heart';
import { HotSellingCard } from './HotSellingCard';

export function HomePage() {
  useDocumentTitle();
  const t = useT('home');
  const newProducts = useNewProducts();
  const hotSelling = useHotSelling();
  const brands = useOemBrands();
  const categories = useCategories();
  useEffect(() => clearOnHome(), []);
  // The lists below the headline come one frame after the first: the banner and headline, what a phone shows
  // first, paint without waiting for sixteen cards to be laid out. Their place is kept meanwhile (`home__later`),
  // so the footer does not flash up and move down.
  const painted = useFirstPaintDone();

  // A section appears only once it has items; a failed list is left out, as an empty one would be.
  const recent = newProducts.status === 'success' ? newProducts.data : [];
  const hot = hotSelling.status === 'success' ? hotSelling.data : [];
  const oems = brands.status === 'success' ? brands.data : [];
  const categoryList = categories.status === 'success' ? categories.data : [];

  return (
    <div className="home">
      <HomeBanner />

      <section className="hero">
        <h1 className="hero__title">{t('headline')}</h1>
        <Link href={searchHref('')} className="button hero__cta">
          {t('shop_now')}
        </Link>
      </section>

      <FilterBar categories={categoryList} brands={oems} />

      {painted ? null : <div className="home__later" />}

      {painted && recent.length > 0 ? (
        <section className="home__section" aria-labelledby="home-recent">
          <h2 id="home-recent">{t('recent.heading')}</h2>
          <ul className="product-grid">
            {recent.map((product) => (
              <li key={product._id}>
                <ProductCard
                  product={product}
                  titleLimit={TITLE_LIMITS.homeCard}
                  actions={cardHeart(product)}
                  footer={cardCart(product)}
                />
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {painted && hot.length > 0 ? (
        <section className="home__section" aria-labelledby="home-hot">
          <h2 id="home-hot">{t('hot.heading')}</h2>
          <ul className="product-grid">
            {hot.map((item) => (
              <li key={item.product_id}>
                <HotSellingCard item={item} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {painted && oems.length > 0 ? <BrandStrip brands={oems} /> : null}
    </div>
  );
}
