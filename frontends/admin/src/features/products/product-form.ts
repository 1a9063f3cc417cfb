// The product editor's values (what the inputs hold, as typed) and the API body they become (`ProductFields`): the
// API's Product field names plus the parts shop's own; rupees with at most two decimals; lists one number a line or
// comma; a used unit's grade, donor car and margin scheme (its purchase price typed in rupees, sent in paise), and
// cross-references one a line as `Brand: number`.
import type { AdminProduct, ProductFields } from '../../lib/api/types';

export type ProductValues = {
  name: string;
  price: string;
  producttype: string;
  description: string;
  category_slug: string;
  subcategory_slug: string;
  oem_slug: string;
  fuelType: string;
  variant: string;
  partNo: string;
  inside_ncr: string;
  outside_ncr: string;
  gst: string;
  sku: string;
  alternateNumbers: string;
  supersededNumbers: string;
  hsn: string;
  warrantyDays: string;
  weightGrams: string;
  length: string;
  width: string;
  height: string;
  published: boolean;
  quantity: string;
  grade: string;
  donorMake: string;
  donorModel: string;
  donorGeneration: string;
  donorYear: string;
  donorOdometerKm: string;
  purchasePrice: string;
  crossReferences: string;
};

/** Whether a condition is a used one: only these carry a grade, a donor car and the margin scheme. */
export const isUsed = (producttype: string) => producttype === 'old' || producttype === 'refurbished';

export const EMPTY_PRODUCT: ProductValues = {
  name: '',
  price: '',
  producttype: 'new',
  description: '',
  category_slug: '',
  subcategory_slug: '',
  oem_slug: '',
  fuelType: 'petrol',
  variant: '',
  partNo: '',
  inside_ncr: '0',
  outside_ncr: '0',
  gst: '18',
  sku: '',
  alternateNumbers: '',
  supersededNumbers: '',
  hsn: '',
  warrantyDays: '7',
  weightGrams: '',
  length: '',
  width: '',
  height: '',
  published: true,
  quantity: '0',
  grade: '',
  donorMake: '',
  donorModel: '',
  donorGeneration: '',
  donorYear: '',
  donorOdometerKm: '',
  purchasePrice: '',
  crossReferences: '',
};

const text = (n: number | undefined | null) => (n === undefined || n === null ? '' : String(n));

export function valuesOf(p: AdminProduct): ProductValues {
  return {
    name: p.name,
    price: text(p.price),
    producttype: p.producttype,
    description: p.description,
    category_slug: p.category_slug,
    subcategory_slug: p.subcategory_slug,
    oem_slug: p.oem_slug,
    fuelType: p.fuelType ?? '',
    variant: p.variant,
    partNo: p.partNo,
    inside_ncr: text(p.inside_ncr),
    outside_ncr: text(p.outside_ncr),
    gst: text(p.gst),
    sku: p.sku,
    alternateNumbers: p.alternateNumbers.join('\n'),
    supersededNumbers: p.supersededNumbers.join('\n'),
    hsn: p.hsn,
    warrantyDays: text(p.warrantyDays),
    weightGrams: text(p.weightGrams),
    length: text(p.dimensionsMm.length),
    width: text(p.dimensionsMm.width),
    height: text(p.dimensionsMm.height),
    published: p.published,
    quantity: text(p.quantity),
    grade: p.grade ?? '',
    donorMake: p.donor?.make ?? '',
    donorModel: p.donor?.model ?? '',
    donorGeneration: p.donor?.generation ?? '',
    donorYear: text(p.donor?.year),
    donorOdometerKm: text(p.donor?.odometerKm),
    purchasePrice: p.marginScheme ? (p.marginScheme.purchasePrice / 100).toFixed(2) : '',
    crossReferences: p.crossReferences.map((r) => `${r.brand}: ${r.number}`).join('\n'),
  };
}

/** A number as typed; the server judges it (an empty or odd value is sent as NaN → null and refused there). */
const num = (value: string): number => {
  const n = Number(value.trim().replace(/,/g, ''));
  return value.trim() === '' || !Number.isFinite(n) ? Number.NaN : n;
};
const list = (value: string): string[] =>
  value
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);

/** `null` takes a used unit's field away (the API's "null removes it"; the generated type does not say so). */
const cleared = <T>(value: T | null): T => value as T;

/** Rupees as typed, in whole paise (NaN, refused by the server, when it is not a number). */
const paise = (value: string): number => Math.round(num(value) * 100);

/** `Bosch: 0 986 494 104`, one a line: the brand before the first colon, the number after it. */
const crossReferencesOf = (value: string) =>
  value
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const colon = line.indexOf(':');
      return colon < 0
        ? { brand: '', number: line }
        : { brand: line.slice(0, colon).trim(), number: line.slice(colon + 1).trim() };
    });

/** The whole body of a creation. */
export function bodyOf(v: ProductValues): ProductFields {
  const donorTyped = [v.donorMake, v.donorModel, v.donorGeneration, v.donorYear, v.donorOdometerKm].some(
    (s) => s.trim() !== '',
  );
  return {
    name: v.name.trim(),
    price: num(v.price),
    producttype: v.producttype,
    description: v.description,
    category_slug: v.category_slug,
    subcategory_slug: v.subcategory_slug,
    oem_slug: v.oem_slug,
    fuelType: v.fuelType,
    variant: v.variant.trim(),
    partNo: v.partNo.trim(),
    inside_ncr: num(v.inside_ncr),
    outside_ncr: num(v.outside_ncr),
    gst: num(v.gst),
    sku: v.sku.trim(),
    alternateNumbers: list(v.alternateNumbers),
    supersededNumbers: list(v.supersededNumbers),
    hsn: v.hsn.trim(),
    warrantyDays: num(v.warrantyDays),
    weightGrams: num(v.weightGrams),
    dimensionsMm: { length: num(v.length), width: num(v.width), height: num(v.height) },
    published: v.published,
    quantity: num(v.quantity),
    grade: cleared(v.grade === '' ? null : v.grade),
    donor: cleared(
      donorTyped
        ? {
            make: v.donorMake.trim(),
            model: v.donorModel.trim(),
            generation: v.donorGeneration.trim(),
            year: num(v.donorYear),
            odometerKm: num(v.donorOdometerKm),
          }
        : null,
    ),
    marginScheme: cleared(v.purchasePrice.trim() === '' ? null : { purchasePrice: paise(v.purchasePrice) }),
    crossReferences: crossReferencesOf(v.crossReferences),
  };
}

/** Only what changed since `saved` (a PATCH never carries the stock). */
export function changesOf(saved: ProductValues, v: ProductValues): Omit<ProductFields, 'quantity'> {
  const before = bodyOf(saved);
  const after = bodyOf(v);
  const changed: Record<string, unknown> = {};
  for (const key of Object.keys(after) as (keyof ProductFields)[]) {
    if (key === 'quantity') continue;
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) changed[key] = after[key];
  }
  return changed as Omit<ProductFields, 'quantity'>;
}

/** Refusal codes and the field each is about (codes the server names that the field's name does not tell). */
/** (`product.sku_taken`, `product.price_invalid`, `product.warranty_days`, … name their field themselves.) */
export const PRODUCT_FIELD_CODES: Record<string, keyof ProductValues> = {
  'product.weight_invalid': 'weightGrams',
  'product.dimensions_invalid': 'length',
  'product.numbers_too_many': 'alternateNumbers',
  'product.placement_unknown': 'category_slug',
  'part_number.empty': 'partNo',
  'product.grade_invalid': 'grade',
  'product.donor_invalid': 'donorMake',
  'product.purchase_price_invalid': 'purchasePrice',
  'product.cross_reference_invalid': 'crossReferences',
  'product.cross_references_too_many': 'crossReferences',
};
