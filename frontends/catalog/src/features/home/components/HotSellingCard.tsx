// A best seller on the home page: image, title and price; opens the product.
import type { HotSellingItem } from '@marque/api-client';
import { TITLE_LIMITS, truncateTitle } from '@marque/rules';
import { CARD_SIZES, pictureAttributes, Price, productHref } from '@marque/ui';
import { Link } from 'wouter';

export function HotSellingCard({ item }: { item: HotSellingItem }) {
  // The API carries the title text in `_id`; `name` is the same text.
  const title = item._id || item.name;
  const first = item.image[0];
  const image = first ? pictureAttributes(first, CARD_SIZES, { width: 320, height: 240 }) : undefined;
  return (
    <article className="product-card">
      <div className="product-card__media">{image ? <img {...image} alt="" loading="lazy" /> : null}</div>
      <div className="product-card__body">
        <h3 className="product-card__title">
          <Link href={productHref(item.product_id)} className="product-card__link" title={title}>
            {truncateTitle(title, TITLE_LIMITS.hotSelling)}
          </Link>
        </h3>
        <Price amount={item.price} />
      </div>
    </article>
  );
}
