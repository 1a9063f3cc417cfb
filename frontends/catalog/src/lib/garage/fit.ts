// Whether a part fits the shopper's car, by its fitment rows: the domain's rule (core/domain/src/vehicle.rs,
// `FitmentRow::fits`) read on the product's answer. Optional fields may be null or absent.
import type { components } from '@marque/api-client';

type Nullable<T> = { [K in keyof T]?: T[K] | null };
/** One fitment row of the product's answer, its optional fields null or absent (the contract is moving to null). */
export type Fit = Pick<components['schemas']['Fit'], 'generationId' | 'make' | 'model' | 'generation'> &
  Nullable<Pick<components['schemas']['Fit'], 'vehicleId' | 'engine' | 'engineCode' | 'note'>> & {
    years?: { from: number; to?: number | null } | null;
  };

/** A car as listings' `fits` and `year` give it. */
export type Car = { vehicleId: string; year?: number | null };

/** The same generation, the row's engine when it names one, and its years holding the car's when both are known. */
export function fitsRow(row: Fit, car: Car): boolean {
  const id = car.vehicleId.toLowerCase();
  const years = row.years;
  return (
    id.startsWith(`${row.generationId.toLowerCase()}.`) &&
    (row.vehicleId == null || row.vehicleId.toLowerCase() === id) &&
    (years == null || car.year == null || (years.from <= car.year && (years.to == null || car.year <= years.to)))
  );
}

/** What the product page says for a car: the first row it fits, `no`, or `unlisted` when the part lists no fitment. */
export function fitFor(rows: readonly Fit[] | null | undefined, car: Car): Fit | 'no' | 'unlisted' {
  if (!rows || rows.length === 0) return 'unlisted';
  return rows.find((row) => fitsRow(row, car)) ?? 'no';
}

/** `2019–2023`, `2019–` or `2019`; empty when every year. */
export function yearsText(years: Fit['years']): string {
  if (years == null) return '';
  if (years.to == null) return `${years.from}–`;
  return years.to === years.from ? String(years.from) : `${years.from}–${years.to}`;
}
