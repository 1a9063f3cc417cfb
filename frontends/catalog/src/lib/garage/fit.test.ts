import { describe, expect, it } from 'vitest';
import { fitFor, fitsRow, yearsText, type Fit } from './fit';

const generation: Fit = { vehicleId: null, generationId: 'bmw-x5-g05', make: 'BMW', model: 'X5', generation: 'G05', engine: null, engineCode: null, years: null, note: null };
const engine: Fit = { ...generation, vehicleId: 'bmw-x5-g05.b57', engine: '3.0d', engineCode: 'B57' };
const x5 = { vehicleId: 'bmw-x5-g05.b57' };

describe('fitsRow', () => {
  it('fits every engine and year of a generation row', () => {
    expect(fitsRow(generation, x5)).toBe(true);
    expect(fitsRow(generation, { vehicleId: 'bmw-x5-g05.b58', year: 2021 })).toBe(true);
  });

  it('needs the generation followed by a dot, not a longer generation id', () => {
    expect(fitsRow(generation, { vehicleId: 'bmw-x5-g05x.b57' })).toBe(false);
    expect(fitsRow(generation, { vehicleId: 'bmw-x5-f15.n57' })).toBe(false);
    expect(fitsRow(generation, { vehicleId: 'bmw-x5-g05' })).toBe(false);
  });

  it('fits only the engine an engine row names, in any case', () => {
    expect(fitsRow(engine, x5)).toBe(true);
    expect(fitsRow(engine, { vehicleId: 'BMW-X5-G05.B57' })).toBe(true);
    expect(fitsRow(engine, { vehicleId: 'bmw-x5-g05.b58' })).toBe(false);
  });

  it('holds the years of a row from first to last, inclusive, and open-ended while made', () => {
    const years = { ...engine, years: { from: 2019, to: 2021 } };
    expect([2018, 2019, 2021, 2022].map((year) => fitsRow(years, { ...x5, year }))).toEqual([false, true, true, false]);
    const open = { ...generation, years: { from: 2020, to: null } };
    expect([2019, 2020, 2035].map((year) => fitsRow(open, { ...x5, year }))).toEqual([false, true, true]);
    // `to` absent is the same as null.
    expect(fitsRow({ ...generation, years: { from: 2020 } }, { ...x5, year: 2030 })).toBe(true);
  });

  it('fits a car whose year is unknown whatever the years, and a row without years whatever the car year', () => {
    const years = { ...engine, years: { from: 2019, to: 2021 } };
    expect(fitsRow(years, x5)).toBe(true);
    expect(fitsRow(years, { ...x5, year: null })).toBe(true);
    expect(fitsRow(engine, { ...x5, year: 1990 })).toBe(true);
  });

  it('reads absent optional fields as null', () => {
    const bare = { generationId: 'bmw-x5-g05', make: 'BMW', model: 'X5', generation: 'G05' } as Fit;
    expect(fitsRow(bare, { ...x5, year: 2024 })).toBe(true);
  });
});

describe('fitFor', () => {
  it('says unlisted for a part without fitment rows', () => {
    expect(fitFor([], x5)).toBe('unlisted');
    expect(fitFor(undefined, x5)).toBe('unlisted');
    expect(fitFor(null, x5)).toBe('unlisted');
  });

  it('gives the first row the car fits, or no', () => {
    const other = { ...generation, generationId: 'bmw-x3-g01' };
    const noted = { ...engine, note: 'front axle' };
    expect(fitFor([other, noted, generation], x5)).toBe(noted);
    expect(fitFor([other, { ...engine, years: { from: 2022, to: null } }], { ...x5, year: 2020 })).toBe('no');
  });
});

describe('yearsText', () => {
  it('writes a range, an open range, a single year or nothing', () => {
    expect(yearsText({ from: 2013, to: 2018 })).toBe('2013–2018');
    expect(yearsText({ from: 2019, to: null })).toBe('2019–');
    expect(yearsText({ from: 2019 })).toBe('2019–');
    expect(yearsText({ from: 2020, to: 2020 })).toBe('2020');
    expect(yearsText(null)).toBe('');
  });
});
