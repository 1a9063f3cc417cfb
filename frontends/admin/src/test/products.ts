// A product, categories and brands as the admin API answers them in these tests.
import type { AdminBrand, AdminCategory, AdminProduct } from '../lib/api/provisional';

export const PRODUCT: AdminProduct = {
  _id: 'p1',
  name: 'Brake disc front',
  price: 2499.5,
  producttype: 'new',
  description: 'Ventilated',
  category_slug: 'brakes',
  subcategory_slug: 'discs',
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
  quantity: 4,
  images: [{ name: '/blobs/a.jpg' }, { name: '/blobs/b.jpg' }, { name: '/blobs/c.jpg' }],
};

export const CATEGORIES: AdminCategory[] = [
  { _id: 'c1', name: 'Brakes', slug: 'brakes', subcategories: [{ name: 'Discs', slug: 'discs' }, { name: 'Pads', slug: 'pads' }] },
  { _id: 'c2', name: 'Engine', slug: 'engine', subcategories: [{ name: 'Filters', slug: 'filters' }] },
];

export const BRANDS: AdminBrand[] = [
  { _id: 'b1', name: 'Maruti', slug: 'maruti', image: '/blobs/maruti.png' },
  { _id: 'b2', name: 'Hyundai', slug: 'hyundai', image: '/blobs/hyundai.png' },
];
