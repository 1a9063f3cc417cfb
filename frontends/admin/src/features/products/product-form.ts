// The product editor's values (what the inputs hold, as typed) and the API body they become (`ProductFields`): the
// API's Product field names plus the parts shop's own; rupees with at most two decimals; lists one number a line or
// comma.
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
};

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

/** The whole body of a creation. */
export function bodyOf(v: ProductValues): ProductFields {
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
};
