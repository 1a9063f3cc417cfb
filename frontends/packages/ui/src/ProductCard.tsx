// A product in a list: image, name, condition badge (and a used unit's grade), stock and price; the whole card
// opens the product. A search result found by a superseded number says so.
// `actions` is a place over the picture for what other features add (the wishlist heart); `footer` one under
// the price (the cart button).
import { useT } from '@marque/i18n';
import { truncateTitle } from '@marque/rules';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { useFirstPaintDone } from './first-paint';
import { CARD_SIZES, pictureAttributes, type PictureRef } from './picture';
import { conditionText } from './labels';
import { Price } from './Price';
import { productHref } from './shop';

export type ProductCardProduct = {
  _id: string;
  name: string;
  price: number;
  quantity: number;
  producttype: string;
  images: ReadonlyArray<PictureRef>;
  /** A used unit's grade (`A`, `B`, `C`); absent for a part without one. */
  grade?: string | null;
  /** In a search's results: the superseded number the search found the part by. */
  supersedes?: string | null;
};

/** How many cards of a list load their picture at once (the first rows on a phone); the rest when scrolled near. */
export const EAGER_CARDS = 4;

export function ProductCard({
  product,
  titleLimit,
  actions,
  footer,
  headingLevel = 3,
  eager = false,
}: {
  product: ProductCardProduct;
  titleLimit: number;
  actions?: ReactNode;
  footer?: ReactNode;
  /** 2 where the cards follow the page's h1 directly (a results list), 3 under a section's h2. */
  headingLevel?: 2 | 3;
  /** The picture is in the first screen: load it at once rather than lazily. */
  eager?: boolean;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const t = useT('common');
  const messages = useT('messages');
  const first = product.images[0];
  const image = first ? pictureAttributes(first, CARD_SIZES, { width: 320, height: 240 }) : undefined;
  const inStock = product.quantity >= 1;
  // A lazy card's picture is asked for once the first frame is painted (its box is reserved by width and
  // height): the first row's pictures, the page's largest paint, do not share the network with the rest.
  const painted = useFirstPaintDone();
  return (
    <article className="product-card">
      <div className="product-card__media">
        {image ? (
          <img
            src={eager || painted ? image.src : undefined}
            srcSet={eager || painted ? image.srcSet : undefined}
            sizes={image.sizes}
            alt=""
            loading={eager ? 'eager' : 'lazy'}
            width={image.width}
            height={image.height}
          />
        ) : null}
        <span className="badge product-card__badge">
          {conditionText(t, product.producttype)}
          {product.grade ? <span className="product-card__grade">{t('card.grade', { grade: product.grade })}</span> : null}
        </span>
        {actions ? <div className="product-card__actions">{actions}</div> : null}
      </div>
      <div className="product-card__body">
        <Heading className="product-card__title">
          <Link href={productHref(product._id)} className="product-card__link" title={product.name}>
            {truncateTitle(product.name, titleLimit)}
          </Link>
        </Heading>
        {product.supersedes ? (
          <p className="product-card__supersedes">{t('card.supersedes', { number: product.supersedes })}</p>
        ) : null}
        {inStock ? (
          <p className="product-card__stock">{t('card.stock', { count: product.quantity })}</p>
        ) : (
          <p className="product-card__stock product-card__stock--out">{messages('stock.out_card')}</p>
        )}
        <Price amount={product.price} />
        {footer ? <div className="product-card__footer">{footer}</div> : null}
      </div>
    </article>
  );
}
