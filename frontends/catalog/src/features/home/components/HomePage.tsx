// Home: the headline, recently added and hot-selling products, and the strip of car brands.
import { TITLE_LIMITS } from '@marque/rules';
import { ProductCard, searchHref, useDocumentTitle } from '@marque/ui';
import { Link } from 'wouter';
import { useHotSelling } from '../api/get-hot-selling';
import { useNewProducts } from '../api/get-new-products';
import { useOemBrands } from '../api/get-oem-brands';
import { BrandStrip } from './BrandStrip';
import { HotSellingCard } from './HotSellingCard';

export function HomePage() {
  useDocumentTitle();
  const newProducts = useNewProducts();
  const hotSelling = useHotSelling();
  const brands = useOemBrands();

  // A section appears only once it has items; a failed list is left out, as an empty one would be.
  const recent = newProducts.status === 'success' ? newProducts.data : [];
  const hot = hotSelling.status === 'success' ? hotSelling.data : [];
  const oems = brands.status === 'success' ? brands.data : [];

  return (
    <div className="home">
      <section className="hero">
        <h1 className="hero__title">Marketplace for New &amp; Used Spare Parts for Luxury Cars</h1>
        <Link href={searchHref('')} className="button hero__cta">
          Shop now
        </Link>
      </section>

      {recent.length > 0 ? (
        <section className="home__section" aria-labelledby="home-recent">
          <h2 id="home-recent">Recently Added Products</h2>
          <ul className="product-grid">
            {recent.map((product) => (
              <li key={product._id}>
                <ProductCard product={product} titleLimit={TITLE_LIMITS.homeCard} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {hot.length > 0 ? (
        <section className="home__section" aria-labelledby="home-hot">
          <h2 id="home-hot">Hot Selling Products</h2>
          <ul className="product-grid">
            {hot.map((item) => (
              <li key={item.product_id}>
                <HotSellingCard item={item} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {oems.length > 0 ? <BrandStrip brands={oems} /> : null}
    </div>
  );
}
