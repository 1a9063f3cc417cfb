// Catalog data for tests, shaped by the API contract.
import type { HotSellingItem, OemBrand, Product } from '@marque/api-client';

export function aProduct(overrides: Partial<Product> = {}): Product {
  return {
    _id: 'p-1',
    name: 'Front Brake Disc Pair Vented 348 mm for BMW 5 Series G30',
    price: 18990,
    quantity: 4,
    producttype: 'new',
    images: [{ name: '/images/products/disc-1.svg' }, { name: '/images/products/disc-2.svg' }],
    description: 'A matched pair of vented front discs.',
    category: 'Brakes',
    subcategory: 'Brake Discs',
    category_slug: 'brakes',
    subcategory_slug: 'brake-discs',
    oem: 'BMW',
    oem_slug: 'bmw',
    fuelType: 'diesel',
    variant: '530d xDrive',
    partNo: '34 10 6 797 602',
    inside_ncr: 250,
    outside_ncr: 600,
    gst: 18,
    ...overrides,
  };
}

export function aHotSellingItem(overrides: Partial<HotSellingItem> = {}): HotSellingItem {
  return {
    product_id: 'p-9',
    _id: 'Genuine Audi Q7 4M Air Suspension Compressor With Relay and Bracket',
    name: 'Genuine Audi Q7 4M Air Suspension Compressor With Relay and Bracket',
    price: 64500,
    image: [{ name: '/images/products/compressor.svg' }],
    ...overrides,
  };
}

export function aBrand(overrides: Partial<OemBrand> = {}): OemBrand {
  return { id: 'b-1', name: 'BMW', slug: 'bmw', image: '/images/brands/bmw.svg', ...overrides };
}
