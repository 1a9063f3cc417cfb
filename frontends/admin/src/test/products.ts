// A product, categories and brands as the admin API answers them in these tests.
import type { AdminBrand, AdminCategory, AdminPhoto, AdminProduct } from '../lib/api/types';

/** A photograph as the photographs calls and the product answer give it: its `_id`, address, size and variants. */
export function photo(id: string, width = 1600, height = 1200): AdminPhoto {
  return {
    _id: id,
    name: `/media/products/p1/${id}-1600.jpg`,
    width,
    height,
    variants: [320, 1600].flatMap((w) =>
      (['webp', 'jpeg'] as const).map((format) => ({
        name: `/media/products/p1/${id}-${w}.${format === 'jpeg' ? 'jpg' : 'webp'}`,
        width: w,
        height: Math.round((w * height) / width),
        format,
      })),
    ),
  };
}

export const PRODUCT: AdminProduct = {
  _id: 'p1',
  name: 'Brake disc front',
  price: 2499.5,
  quantity: 4,
  producttype: 'new',
  images: [photo('a'), photo('b'), photo('c')],
  description: 'Ventilated',
  category: 'Brakes',
  category_slug: 'brakes',
  subcategory: 'Discs',
  subcategory_slug: 'discs',
  oem: 'Maruti',
  oem_slug: 'maruti',
  fuelType: 'petrol',
  variant: 'Swift 2018',
  partNo: '55311M68K00',
  inside_ncr: 0,
  outside_ncr: 150,
  gst: 18,
  sku: 'BD-001',
  alternateNumbers: ['55311-M68K00'],
  supersededNumbers: [],
  hsn: '8708',
  warrantyDays: 7,
  weightGrams: 3200,
  dimensionsMm: { length: 280, width: 280, height: 30 },
  published: true,
  unitsSold: 2,
  createdAt: 1_795_000_000,
  crossReferences: [],
};

export const CATEGORIES: AdminCategory[] = [
  {
    _id: 'c1',
    name: 'Brakes',
    slug: 'brakes',
    subcategories: [
      { _id: 's1', name: 'Discs', slug: 'discs' },
      { _id: 's2', name: 'Pads', slug: 'pads' },
    ],
  },
  { _id: 'c2', name: 'Engine', slug: 'engine', subcategories: [{ _id: 's3', name: 'Filters', slug: 'filters' }] },
];

export const BRANDS: AdminBrand[] = [
  { _id: 'b1', name: 'Maruti', slug: 'maruti', logo: '/new-car-logo/maruti.png' },
  { _id: 'b2', name: 'Hyundai', slug: 'hyundai', logo: '/new-car-logo/hyundai.png' },
];
