// Product detail: breadcrumb, images, name, price, stock, whether it fits the garage's car, every particular of the
// part (an empty one shown as '—'), the cars it fits, the description and the shop's important information.
import type { Product } from '@marque/api-client';
import { useT } from '@marque/i18n';
import { conditionText, formatRupees, fuelText, Price, useDocumentTitle, usePageDescription } from '@marque/ui';
import type { ReactNode } from 'react';
import { useSearch } from 'wouter';
import { brandArrivalFrom, useHistoryState } from '../../../lib/arrival';
import { FitsList, FitVerdict } from './FitVerdict';
import { useProduct } from '../api/get-product';
import { ImageGallery } from './ImageGallery';
import { ImportantInformation } from './ImportantInformation';
import { ProductBreadcrumb } from './ProductBreadcrumb';

/**
 * Places later features fill: the cart buttons (Buy now, Add to cart / Go to cart) and the
 * wishlist heart. Nothing is drawn for them until they are given.
 */
export type ProductSlots = {
  cartActions?: (product: Product) => ReactNode;
  wishlist?: (product: Product) => ReactNode;
};

/** The shop's definition of each grade (the answer's `gradeDefinition`), English and Hindi in the product texts. */
const GRADE_DEFINITIONS = { A: 'grade_definition.a', B: 'grade_definition.b', C: 'grade_definition.c' } as const;

export function ProductPage(slots: ProductSlots = {}) {
  const productId = new URLSearchParams(useSearch()).get('productId') ?? '';
  return productId ? <ProductLoader productId={productId} slots={slots} /> : <NotFound />;
}

function ProductLoader({ productId, slots }: { productId: string; slots: ProductSlots }) {
  const t = useT('product');
  const product = useProduct(productId);
  if (product.status === 'loading') {
    return (
      <p className="status-message" role="status">
        {t('loading')}
      </p>
    );
  }
  return product.status === 'success' ? <ProductDetail product={product.data} slots={slots} /> : <NotFound />;
}

function NotFound() {
  const t = useT('product');
  const message = useT('messages');
  useDocumentTitle(t('title.not_found'));
  return (
    <p className="status-message" role="status">
      {message('catalog.not_found')}
    </p>
  );
}

function ProductDetail({ product, slots }: { product: Product; slots: ProductSlots }) {
  const t = useT('product');
  const labels = useT('common');
  const message = useT('messages');
  useDocumentTitle(product.name);
  // The same description the server gives a first visit, kept right after client-side navigation; cut like the server's.
  usePageDescription(
    t('meta.description', {
      name: product.name,
      condition: conditionText(labels, product.producttype),
      brand: product.oem,
      partNo: product.partNo,
      price: formatRupees(product.price),
      description: product.description,
    }).slice(0, 300),
  );
  const arrival = brandArrivalFrom(useHistoryState());
  const orDash = (value: string) => (value.trim() ? value : t('empty'));

  const particulars: Array<[label: string, value: string]> = [
    [t('field.condition'), conditionText(labels, product.producttype)],
    [t('field.category'), product.category],
    [t('field.subcategory'), product.subcategory],
    [t('field.fuel'), fuelText(labels, product.fuelType)],
    [t('field.variant'), product.variant],
    [t('field.part_no'), product.partNo],
    [t('field.brand'), product.oem],
  ];
  // A used unit (issue 25): its grade with the shop's definition, and the car it came from.
  if (product.grade) {
    const definition = GRADE_DEFINITIONS[product.grade as keyof typeof GRADE_DEFINITIONS];
    particulars.push([t('field.grade'), definition ? t(definition) : product.grade]);
  }
  if (product.donor) {
    const donor = product.donor;
    particulars.push([
      t('field.donor'),
      t('donor.text', {
        make: donor.make,
        model: donor.model,
        generation: donor.generation,
        year: donor.year,
        km: donor.odometerKm.toLocaleString('en-IN'),
      }),
    ]);
  }
  if (product.crossReferences?.length) {
    particulars.push([
      t('field.cross_references'),
      product.crossReferences.map((r) => `${r.brand} ${r.number}`).join(', '),
    ]);
  }
  return (
    <>
      <ProductBreadcrumb product={product} arrival={arrival} />
      <article className="product-detail">
        <ImageGallery images={product.images} name={product.name} />
        <div className="product-detail__summary">
          <div className="product-detail__heading">
            <h1 className="product-detail__name">{orDash(product.name)}</h1>
            {slots.wishlist ? <div className="product-detail__wishlist">{slots.wishlist(product)}</div> : null}
          </div>
          <Price amount={product.price} className="price--large" />
          {product.quantity < 1 ? (
            <p className="product-detail__stock product-detail__stock--out">{message('stock.out_detail')}</p>
          ) : (
            <p className="product-detail__stock">{t('stock.in', { count: product.quantity })}</p>
          )}
          <FitVerdict product={product} />
          {slots.cartActions ? (
            <div className={product.quantity < 1 ? 'product-detail__actions' : 'product-detail__actions cart-slot'}>
              {slots.cartActions(product)}
            </div>
          ) : null}
          <dl className="particulars">
            {particulars.map(([label, value]) => (
              <div key={label} className="particulars__row">
                <dt>{label}</dt>
                <dd>{orDash(value)}</dd>
              </div>
            ))}
          </dl>
          <FitsList fits={product.fits} />
          <p className="product-detail__promise">{t('promise')}</p>
        </div>
        <section className="product-detail__description" aria-labelledby="product-description">
          <h2 id="product-description">{t('description.heading')}</h2>
          <p>{orDash(product.description)}</p>
        </section>
        <ImportantInformation />
      </article>
    </>
  );
}
