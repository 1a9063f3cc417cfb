// A car brand's page: its name, a grid of its products, newest first, and the page links.
import { TITLE_LIMITS } from '@marque/rules';
import { brandHref, Pagination, ProductCard, useDocumentTitle } from '@marque/ui';
import { useRoute, useSearch } from 'wouter';
import { useBrand } from '../api/get-brand';
import { useBrandProducts } from '../api/get-brand-products';

/** The page asked for in the address, or 1 when it is missing or not a positive whole number. */
function pageFrom(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

export function BrandPage() {
  const [, params] = useRoute('/brand/:brandSlug');
  const slug = params?.brandSlug ?? '';
  const page = pageFrom(new URLSearchParams(useSearch()).get('page'));
  // Both requests start together; the page waits for the brand list only, to name the brand.
  const brand = useBrand(slug);
  const products = useBrandProducts(slug, page);

  if (brand.status === 'loading') {
    return (
      <p className="status-message" role="status">
        Loading…
      </p>
    );
  }
  // A brand the list does not know, or a list that failed to load, still gets a heading: its slug.
  const name = (brand.status === 'success' && brand.data?.name) || slug;
  return (
    <div className="listing">
      <BrandHeading name={name} />
      {products.status === 'loading' ? (
        <p className="status-message" role="status">
          Loading…
        </p>
      ) : products.status === 'error' || products.data.results.length === 0 ? (
        <p className="status-message" role="status">
          Product Not Found
        </p>
      ) : (
        <>
          <ul className="product-grid">
            {products.data.results.map((product) => (
              <li key={product._id}>
                <ProductCard product={product} titleLimit={TITLE_LIMITS.listingCard} />
              </li>
            ))}
          </ul>
          <Pagination page={page} pages={products.data.pages} hrefFor={(n) => brandHref(slug, n)} />
        </>
      )}
    </div>
  );
}

function BrandHeading({ name }: { name: string }) {
  // The same title the server puts in the page head for this route.
  useDocumentTitle(`${name} Spare Parts`);
  return <h1 className="listing__heading">{name} Spare Parts</h1>;
}
