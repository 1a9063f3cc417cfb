// A sideways-scrolling row of car-brand logos, each opening that brand's parts.
import type { OemBrand } from '@marque/api-client';
import { useT } from '@marque/i18n';
import { brandHref } from '@marque/ui';
import { Link } from 'wouter';

export function BrandStrip({ brands }: { brands: OemBrand[] }) {
  const t = useT('home');
  return (
    <section className="home__section brand-strip" aria-labelledby="home-brands">
      <h2 id="home-brands">{t('brands.heading')}</h2>
      <ul className="brand-strip__list">
        {brands.map((brand) => (
          <li key={brand.slug}>
            {/* Brand names are the shop's data, shown as they are. */}
            <Link href={brandHref(brand.slug)} className="brand-strip__link" title={brand.name}>
              <img src={brand.image} alt={brand.name} width={96} height={64} loading="lazy" />
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
