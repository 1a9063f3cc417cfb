// The listings' car chip: with a car in the address, 'BMW X5 (G05) 3.0d ×' takes it away (a car the garage does not
// hold, as a shared link's, is named from the vehicle table); without one, the garage's chosen car is offered ('Only
// parts for my X5 (G05) 3.0d'), and with no car chosen the garage is.
import { useT } from '@marque/i18n';
import { carLabel, openGarage, useGarage, type GarageCar } from '@marque/session';
import { useCarFilter } from './car-filter';
import { useVehicleName } from './vehicle-name';

const withYear = (name: string, year: number | null) => `${name}${year === null ? '' : ` ${year}`}`;
const named = (car: GarageCar | undefined, year: number | null) => car && withYear(`${car.make} ${carLabel(car)}`, year);

export function CarChip() {
  const t = useT('listing');
  const { cars, current } = useGarage();
  const { car, setCar } = useCarFilter();
  const kept = car ? cars.find((c) => c.id === car.fits.toLowerCase()) : undefined;
  const looked = useVehicleName(car && !kept ? car.fits.toLowerCase() : null);
  if (car) {
    const text = named(kept, car.year) ?? (looked === null ? car.fits : withYear(looked, car.year));
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
