// Product detail: images, name, price, stock, the part's particulars and the shop's important information.
import type { Product } from '@marque/api-client';
import { conditionLabel, fuelLabel } from '@marque/rules';
import { Price, useDocumentTitle } from '@marque/ui';
import { useSearch } from 'wouter';
import { useProduct } from '../api/get-product';
import { ImageGallery } from './ImageGallery';
import { ImportantInformation } from './ImportantInformation';

export function ProductPage() {
  const productId = new URLSearchParams(useSearch()).get('productId') ?? '';
  return productId ? <ProductLoader productId={productId} /> : <NotFound />;
}

function ProductLoader({ productId }: { productId: string }) {
  const product = useProduct(productId);
  if (product.status === 'loading') {
    return (
      <p className="status-message" role="status">
        Loading…
      </p>
    );
  }
  return product.status === 'success' ? <ProductDetail product={product.data} /> : <NotFound />;
}

function NotFound() {
  useDocumentTitle('Product not found');
  return (
    <p className="status-message" role="status">
      Product Not Found
    </p>
  );
}

function ProductDetail({ product }: { product: Product }) {
  useDocumentTitle(product.name);
  const particulars: Array<[string, string]> = [
    ['Condition', conditionLabel(product.producttype)],
    ['Category', product.category],
    ['Subcategory', product.subcategory],
    ['Fuel type', fuelLabel(product.fuelType)],
    ['Variant', product.variant],
    ['Part No', product.partNo],
    ['Brand', product.oem],
  ];
  return (
    <article className="product-detail">
      <ImageGallery images={product.images} name={product.name} />
      <div className="product-detail__summary">
        <h1 className="product-detail__name">{product.name}</h1>
        <Price amount={product.price} className="price--large" />
        {product.quantity < 1 ? (
          <p className="product-detail__stock product-detail__stock--out">Out of Stock</p>
        ) : (
          <p className="product-detail__stock">In stock: {product.quantity}</p>
        )}
        <dl className="particulars">
          {particulars
            .filter(([, value]) => value)
            .map(([label, value]) => (
              <div key={label} className="particulars__row">
                <dt>{label}</dt>
                <dd>{value}</dd>
              </div>
            ))}
        </dl>
        <p className="product-detail__promise">Door-step delivery, with multiple payment options.</p>
      </div>
      <section className="product-detail__description" aria-labelledby="product-description">
        <h2 id="product-description">Description</h2>
        <p>{product.description}</p>
      </section>
      <ImportantInformation />
    </article>
  );
}
