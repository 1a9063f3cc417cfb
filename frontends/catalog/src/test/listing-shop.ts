// A fake shop for the listing pages: categories, brands and products, filtered and paged (2 a page)
// the way the server answers `listCategoryProducts` and `listSubcategoryProducts`.
import type { Category, OemBrand, Product } from '@marque/api-client';
import { failed, fakeServer, type FakeRoutes } from '@marque/api-client/testing';
import { FILTER_SEPARATOR } from '@marque/rules';
import { aBrand, aProduct } from './fixtures';

export const PAGE_SIZE = 2;

export const categories: Category[] = [
  {
    _id: 'c-1',
    name: 'Brakes',
    slug: 'brakes',
    subcategory: [
      { _id: 's-1', name: 'Brake Discs', slug: 'brake-discs' },
      { _id: 's-2', name: 'Brake Pads', slug: 'brake-pads' },
      { _id: 's-3', name: 'Others', slug: 'others' },
    ],
  },
  {
    _id: 'c-2',
    name: 'Engine',
    slug: 'engine',
    subcategory: [
      { _id: 's-4', name: 'Turbochargers', slug: 'turbochargers' },
      { _id: 's-5', name: 'Others', slug: 'others' },
    ],
  },
];

export const brands: OemBrand[] = [
  aBrand({ id: 'b-1', name: 'Audi', slug: 'audi', image: '/images/brands/audi.svg' }),
  aBrand({ id: 'b-2', name: 'BMW', slug: 'bmw' }),
  aBrand({ id: 'b-3', name: 'Land Rover', slug: 'land-rover', image: '/images/brands/land-rover.svg' }),
];

const part = (id: string, name: string, over: Partial<Product>): Product =>
  aProduct({ _id: id, name, category: 'Brakes', category_slug: 'brakes', ...over });

export const catalog: Product[] = [
  part('d-1', 'BMW G30 front brake disc', { subcategory_slug: 'brake-discs', oem_slug: 'bmw', fuelType: 'diesel', producttype: 'new' }),
  part('d-2', 'Audi Q7 front brake disc', { subcategory_slug: 'brake-discs', oem_slug: 'audi', oem: 'Audi', fuelType: 'diesel', producttype: 'old' }),
  part('d-3', 'BMW X5 rear brake disc', { subcategory_slug: 'brake-discs', oem_slug: 'bmw', fuelType: 'petrol', producttype: 'new' }),
  part('d-4', 'BMW 7 Series front brake disc', { subcategory_slug: 'brake-discs', oem_slug: 'bmw', fuelType: 'diesel', producttype: 'old' }),
  part('d-5', 'BMW X3 rear brake disc', { subcategory_slug: 'brake-discs', oem_slug: 'bmw', fuelType: 'diesel', producttype: 'new' }),
  part('p-1', 'Audi A6 brake pad set', { subcategory_slug: 'brake-pads', oem_slug: 'audi', oem: 'Audi', fuelType: 'petrol', producttype: 'new' }),
];

/** The products of `list` that pass the filters in `url`'s query; an unknown fixed value is refused. */
function filtered(list: Product[], url: URL): Product[] | Response {
  const values = (name: string) => (url.searchParams.get(name) ?? '').split(FILTER_SEPARATOR).filter(Boolean);
  const oem = values('oem');
  const type = values('product_type');
  const fuel = values('fuel_type');
  if (type.some((v) => !['old', 'new'].includes(v)) || fuel.some((v) => !['petrol', 'diesel'].includes(v))) {
    return failed(400, 'Unknown filter value', 'filter.invalid');
  }
  return list.filter(
    (p) =>
      (oem.length === 0 || oem.includes(p.oem_slug)) &&
      (type.length === 0 || type.includes(p.producttype)) &&
      (fuel.length === 0 || fuel.includes(p.fuelType)),
  );
}

const pageOf = (found: Product[], url: URL) => {
  const page = Number(url.searchParams.get('page') ?? 1);
  return {
    results: found.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE),
    pages: Math.ceil(found.length / PAGE_SIZE),
    page,
    total: found.length,
  };
};

const ref = ({ _id, name, slug }: { _id: string; name: string; slug: string }) => ({ _id, name, slug });

export const listingRoutes = (products: Product[] = catalog): FakeRoutes => ({
  '/api/get/category': () => ({ status: 'success', data: categories }),
  '/api/get/brand/oem': () => ({ status: 'success', data: brands }),
  '/api/get/product/{categorySlug}': ({ url, params }) => {
    const category = categories.find((c) => c.slug === params.categorySlug);
    if (!category) return failed(404, 'Category not found', 'category.not_found');
    const inCategory = products.filter((p) => p.category_slug === category.slug);
    const anyFilter = ['oem', 'product_type', 'fuel_type'].some((name) => url.searchParams.get(name));
    if (!anyFilter) {
      return {
        status: 'success',
        view: 'grouped',
        category: ref(category),
        subcategory: category.subcategory.map((sub) => {
          const found = inCategory.filter((p) => p.subcategory_slug === sub.slug);
          return { ...ref(sub), count: found.length, products: found.slice(0, 4) };
        }),
        results: [],
        pages: 0,
        page: 1,
        total: inCategory.length,
      };
    }
    const found = filtered(inCategory, url);
    if (found instanceof Response) return found;
    return { status: 'success', view: 'flat', category: ref(category), subcategory: [], ...pageOf(found, url) };
  },
  '/api/get/product/{categoryName}/{subCategoryName}': ({ url, params }) => {
    const category = categories.find((c) => c.slug === params.categoryName);
    const sub = category?.subcategory.find((s) => s.slug === params.subCategoryName);
    if (!category || !sub) return failed(404, 'Category not found', 'category.not_found');
    const found = filtered(
      products.filter((p) => p.category_slug === category.slug && p.subcategory_slug === sub.slug),
      url,
    );
    if (found instanceof Response) return found;
    return { status: 'success', category: ref(category), subcategory: ref(sub), ...pageOf(found, url) };
  },
});

export const listingShop = (products?: Product[]) => fakeServer(listingRoutes(products));
