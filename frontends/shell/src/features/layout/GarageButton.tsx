// The header's "My garage" button: opens the garage panel (the catalog remote's, loaded the first time it opens).
// Its car comes from local storage before the first paint, and its size is fixed by the CSS, so nothing moves.
// An icon with a dot while a car is in use; its name (and title) says which car.
import { useT } from '@marque/i18n';
import { carLabel, openGarage, useGarage } from '@marque/session';

export function GarageButton() {
  const t = useT('shell');
  const { current, open } = useGarage();
  const label = current ? t('garage.open_car', { car: carLabel(current) }) : t('garage.open');
  return (
    <button
      type="button"
      className="garage-button"
      title={label}
      aria-haspopup="dialog"
      aria-expanded={open}
      onClick={openGarage}
    >
      <svg aria-hidden="true" width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
        <path d="M5 11l2-5h10l2 5M4 11h16v5H4zM6 16v2M18 16v2" />
      </svg>
      <span className="visually-hidden">{label}</span>
      {current ? <span className="garage-button__dot" aria-hidden="true" /> : null}
    </button>
  );
}
