// The car a listing is narrowed to, as the address carries it: `fits={vehicleId}` and, maybe, `&year=`.
// The listing calls take the same two values; the server answers `vehicle.unknown` for a vehicle it does not know.
import { useLocation, useSearch } from 'wouter';

export type CarFilter = { fits: string; year: number | null };

/** The car in a query string; a year that is not a whole number is left out. */
export function carFilterFrom(query: URLSearchParams): CarFilter | null {
  const fits = query.get('fits')?.trim();
  if (!fits) return null;
  const year = Number(query.get('year') || NaN);
  return { fits, year: Number.isInteger(year) ? year : null };
}

/** The query values of the listing calls: nothing without a car. */
export function carParams(car: CarFilter | null): { fits?: string; year?: number } {
  if (!car) return {};
  return car.year === null ? { fits: car.fits } : { fits: car.fits, year: car.year };
}

/** `href` (which has a query already) with the car appended. */
export function withCar(href: string, car: CarFilter | null): string {
  if (!car) return href;
  return `${href}&${new URLSearchParams(carParams(car) as Record<string, string>).toString()}`;
}

/** The listing's car from the address, and a way to show page 1 with another car or none. */
export function useCarFilter() {
  const [path, navigate] = useLocation();
  const search = useSearch();
  return {
    car: carFilterFrom(new URLSearchParams(search)),
    setCar: (next: CarFilter | null) => {
      const query = new URLSearchParams(search);
      query.delete('fits');
      query.delete('year');
      if (query.has('page')) query.set('page', '1');
      for (const [key, value] of Object.entries(carParams(next))) query.set(key, String(value));
      const text = query.toString();
      navigate(text ? `${path}?${text}` : path);
    },
  };
}
