// /wishlist: 'Your wishlist', one card per entry (image, name, stock, price, Remove), or the empty picture.
import { useT } from '@marque/i18n';
import { TITLE_LIMITS, truncateTitle } from '@marque/rules';
import type { User, WishlistEntry } from '@marque/api-client';
import { setWished, setWishlist, takeStartWishlist, takeStartWishlistNow } from '@marque/session';
import { EAGER_CARDS, Price, productHref, useDocumentTitle, useFirstPaintDone } from '@marque/ui';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { Loading } from '../../../lib/Loading';
import { useCustomer } from '../../../lib/use-customer';
import { getWishlist } from '../api/get-wishlist';
import { removeFromWishlist } from '../api/remove-from-wishlist';
import { EmptyWishlist } from './EmptyWishlist';

export function WishlistPage() {
  const t = useT('account');
  useDocumentTitle(t('wishlist.title'));
  const user = useCustomer();
  return (
    <section className="account-page wishlist-page">
      <h1>{t('wishlist.title')}</h1>
      {user ? <Wishlist user={user} /> : <Loading />}
    </section>
  );
}

function Wishlist({ user }: { user: User }) {
  // Opened on this page (drawn before the first paint): the session asked the same question as the page opened,
  // and when the server wrote its answer into the page, the first render draws the entries at once.
  const landing = useRef(!useFirstPaintDone());
  const [entries, setEntries] = useState<WishlistEntry[] | null>(() =>
    landing.current ? (takeStartWishlistNow(user._id) ?? null) : null,
  );
  // The first render's entries are the answer: not asked again.
  const answered = useRef(entries !== null);
  useEffect(() => {
    if (answered.current) {
      answered.current = false;
      return undefined;
    }
    let current = true;
    const asked = landing.current ? takeStartWishlist(user._id) : undefined;
    const loaded = asked
      ? asked
      : getWishlist(user._id).then((answer) => {
          // A failed load is only logged (the specification) and shows as an empty wishlist.
          if (!answer.ok) console.error('[marque] the wishlist could not be loaded', answer.message);
          return answer.ok ? answer.body.result : null;
        });
    void loaded.then((result) => {
      if (!current) return;
      setEntries(result ?? []);
      if (result) setWishlist(result.map((entry) => entry._id));
    });
    return () => {
      current = false;
    };
  }, [user._id]);

  if (entries === null) return <Loading />;
  if (entries.length === 0) return <EmptyWishlist />;

  const remove = async (id: string) => {
    const answer = await removeFromWishlist(id);
    if (!answer.ok) {
      console.error('[marque] the wishlist entry could not be removed', answer.message);
      return;
    }
    setEntries((list) => (list ?? []).filter((entry) => entry._id !== id));
    setWished(id, false);
  };

  return (
    <ul className="product-grid wishlist-grid">
      {entries.map((entry, index) => (
        <li key={entry._id}>
          <WishlistCard entry={entry} eager={index < EAGER_CARDS} onRemove={() => void remove(entry._id)} />
        </li>
      ))}
    </ul>
  );
}

/** `eager`: a card of the first row, whose picture is among the first things the page paints. */
function WishlistCard({ entry, eager, onRemove }: { entry: WishlistEntry; eager: boolean; onRemove: () => void }) {
  const t = useT('account');
  const labels = useT('common');
  const messages = useT('messages');
  return (
    <article className="product-card wishlist-card">
      <div className="product-card__media">
        {entry.image ? <img src={entry.image} alt="" loading={eager ? 'eager' : 'lazy'} width={320} height={240} /> : null}
      </div>
      <div className="product-card__body">
        <h2 className="product-card__title">
          <Link href={productHref(entry._id)} title={entry.name}>
            {truncateTitle(entry.name, TITLE_LIMITS.wishlist)}
          </Link>
        </h2>
        {entry.quantity >= 1 ? (
          <p className="product-card__stock">{labels('card.stock', { count: entry.quantity })}</p>
        ) : (
          <p className="product-card__stock product-card__stock--out">{messages('stock.out_card')}</p>
        )}
        <Price amount={entry.price} />
        <button
          type="button"
          className="button button--quiet wishlist-card__remove"
          aria-label={t('wishlist.remove_label', { name: entry.name })}
          onClick={onRemove}
        >
          {t('wishlist.remove')}
        </button>
      </div>
    </article>
  );
}
