// The empty wishlist: a drawn heart over an empty shelf, and one line of text.
import { useT } from '@marque/i18n';

export function EmptyWishlist() {
  const t = useT('account');
  return (
    <div className="wishlist-empty">
      <svg aria-hidden="true" width="160" height="120" viewBox="0 0 160 120">
        <rect x="10" y="96" width="140" height="8" rx="4" fill="#dfe0e5" />
        <path
          d="M80 86 L50 56 A17 17 0 0 1 80 34 A17 17 0 0 1 110 56 Z"
          fill="none"
          stroke="#c8102e"
          strokeWidth="5"
          strokeLinejoin="round"
        />
      </svg>
      <p>{t('wishlist.empty')}</p>
    </div>
  );
}
