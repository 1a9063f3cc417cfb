// The wishlist heart as it looks: filled when the product is in the wishlist, an outline when not, and the
// message of the heart's place under it. The account remote's heart gives it its behaviour; the catalog shows
// it to visitors, whose only answer is the login message, without loading the account remote.
import { useT } from '@marque/i18n';
import type { MessageCode } from '@marque/rules';

export type HeartPlace = 'card' | 'detail';

/** Each place keeps its own reading of the specification's two messages (PRODUCT_RULES.md). */
export const HEART_MESSAGES: Record<HeartPlace, { login: MessageCode; full: MessageCode }> = {
  card: { login: 'wishlist.login_required', full: 'wishlist.full' },
  detail: { login: 'wishlist.login_alert', full: 'wishlist.full_alert' },
};

export function HeartButton({
  name,
  place,
  wished,
  problem,
  onToggle,
}: {
  name: string;
  place: HeartPlace;
  wished: boolean;
  problem: MessageCode | null;
  onToggle: () => void;
}) {
  const t = useT('account');
  const messages = useT('messages');
  return (
    <div className={`wishlist-heart wishlist-heart--${place}`}>
      <button
        type="button"
        className={wished ? 'wishlist-heart__button wishlist-heart__button--on' : 'wishlist-heart__button'}
        aria-label={wished ? t('heart.remove', { name }) : t('heart.add', { name })}
        onClick={(event) => {
          // A heart inside a card must not open the product.
          event.preventDefault();
          event.stopPropagation();
          onToggle();
        }}
      >
        <svg aria-hidden="true" width="24" height="24" viewBox="0 0 24 24">
          <path
            d="M12 21s-7.5-4.6-9.5-9.3C1.2 8.5 3.3 5 6.8 5c2.1 0 3.6 1.1 5.2 3 1.6-1.9 3.1-3 5.2-3 3.5 0 5.6 3.5 4.3 6.7C19.5 16.4 12 21 12 21z"
            fill={wished ? 'currentColor' : 'none'}
            stroke="currentColor"
            strokeWidth="2"
            strokeLinejoin="round"
          />
        </svg>
      </button>
      {problem ? (
        <p className="wishlist-heart__message" role="alert">
          {messages(problem)}
        </p>
      ) : null}
    </div>
  );
}
