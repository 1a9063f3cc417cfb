// Whether the part fits the car chosen in the garage: "Fits your X5 (G05) 3.0d", "Does not fit your car", or, for a
// part without fitment, "Fitment not listed – ask us" with the shop's chat (the contact page when it has none).
import type { Product } from '@marque/api-client';
import { useT } from '@marque/i18n';
import { carLabel, openGarage, useGarage } from '@marque/session';
import { useShopIdentity } from '@marque/ui';
import { Link } from 'wouter';
import { fitFor, yearsText } from '../../../lib/garage/fit';

export function FitVerdict({ product }: { product: Product }) {
  const t = useT('product');
  const { current } = useGarage();
  const { chatNumber } = useShopIdentity();
  const fits = product.fits ?? [];
  if (fits.length === 0) {
    const ask = t('fit.unlisted');
    return (
      <p className="fit fit--unlisted">
        {chatNumber ? (
          <a
            href={`https://wa.me/${chatNumber}?text=${encodeURIComponent(t('fit.chat', { partNo: product.partNo, name: product.name }))}`}
            target="_blank"
            rel="noopener"
          >
            {ask}
          </a>
        ) : (
          <Link href="/contactus">{ask}</Link>
        )}
      </p>
    );
  }
  if (!current) {
    return (
      <p className="fit">
        <button type="button" className="filter-chip" onClick={openGarage}>
          {t('fit.check')}
        </button>
      </p>
    );
  }
  const row = fitFor(fits, { vehicleId: current.id, year: current.year });
  if (typeof row === 'string') {
    return (
      <p className="fit fit--no">
        {t('fit.no')}: {carLabel(current)}
      </p>
    );
  }
  return (
    <p className="fit fit--yes">
      {t('fit.yes', { car: carLabel(current) })}
      {row.note ? ` – ${row.note}` : null}
    </p>
  );
}

/** Every vehicle the part fits, as the fitment lists it: `BMW X5 (G05) 3.0d 2019–2023 – front axle`. */
export function FitsList({ fits }: { fits: Product['fits'] }) {
  const t = useT('product');
  if (!fits || fits.length === 0) return null;
  return (
    <section className="product-fits" aria-labelledby="product-fits">
      <h2 id="product-fits">{t('fits.heading')}</h2>
      <ul>
        {fits.map((row, i) => (
          <li key={i}>
            {`${row.make} ${row.model} (${row.generation}) ${row.engine ?? t('fits.all_engines')}`}
            {row.years ? ` ${yearsText(row.years)}` : null}
            {row.note ? ` – ${row.note}` : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
