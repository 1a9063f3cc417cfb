// The listings' car chip: with a car in the address, 'BMW X5 (G05) 3.0d ×' takes it away; without one, the garage's
// chosen car is offered ('Only parts for my X5 (G05) 3.0d'), and with no car chosen the garage is.
import { useT } from '@marque/i18n';
import { carLabel, openGarage, useGarage, type GarageCar } from '@marque/session';
import { useCarFilter } from './car-filter';

const named = (car: GarageCar | undefined, year: number | null) =>
  car && `${car.make} ${carLabel(car)}${year === null ? '' : ` ${year}`}`;

export function CarChip() {
  const t = useT('listing');
  const { cars, current } = useGarage();
  const { car, setCar } = useCarFilter();
  if (car) {
    const text = named(cars.find((c) => c.id === car.fits.toLowerCase()), car.year) ?? car.fits;
    return (
      <p className="filter-chips">
        <button type="button" className="filter-chip" aria-label={t('remove_value', { value: text })} onClick={() => setCar(null)}>
          {t('car.fits', { car: text })}
          <span aria-hidden="true" className="filter-chip__x">
            ×
          </span>
        </button>
      </p>
    );
  }
  return (
    <p className="filter-chips">
      <button
        type="button"
        className="filter-chip car-chip__offer"
        onClick={() => (current ? setCar({ fits: current.id, year: current.year }) : openGarage())}
      >
        {current ? t('car.only', { car: carLabel(current) }) : t('car.choose')}
      </button>
    </p>
  );
}
