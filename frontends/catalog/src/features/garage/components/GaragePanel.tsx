// The garage panel ('catalog/Garage', loaded by the shell's header button the first time it opens): the shopper's
// cars, one of them in use or none, and the picker to add one. Its texts are the lazy `garage` namespace.
import { loadNamespace, namespaceLoaded, useT } from '@marque/i18n';
import {
  addCar,
  carLabel,
  chooseCar,
  closeGarage,
  GARAGE_MAX_CARS,
  removeCar,
  useGarage,
  useSession,
  type GarageCar,
} from '@marque/session';
import { followGarage, mergeGarageAtSignIn } from '@marque/session/garage-sync';
import { useModalDialog } from '@marque/ui';
import { useEffect, useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { VehiclePicker } from './VehiclePicker';

/** `BMW X5 (G05) 3.0d 2020`: a car as the garage lists it. */
export const carName = (car: GarageCar) => `${car.make} ${carLabel(car)}${car.year === null ? '' : ` ${car.year}`}`;

// Signed in, the cars follow the account: each change made here is kept there too.
followGarage();

/** Whether this page merged the account's cars already (the panel opened once, signed in). */
let merged = false;

export function GaragePanel() {
  const { open } = useGarage();
  const { status, token } = useSession();
  useEffect(() => {
    // The account's cars (chosen on another device since) join the ones here the first time the panel opens.
    if (!open || merged || status !== 'authenticated' || !token) return;
    merged = true;
    void mergeGarageAtSignIn(token);
  }, [open, status, token]);
  const [ready, setReady] = useState(() => namespaceLoaded('garage'));
  useEffect(() => {
    if (!ready)
      loadNamespace('garage')
        .catch((error: unknown) => console.error('[marque] the garage texts could not be loaded', error))
        .finally(() => setReady(true));
  }, [ready]);
  return open && ready ? <OpenGaragePanel /> : null;
}

function OpenGaragePanel() {
  const t = useT('garage');
  const { cars, current } = useGarage();
  const [adding, setAdding] = useState(cars.length === 0);
  const closeButton = useRef<HTMLButtonElement>(null);
  const dialog = useModalDialog<HTMLDivElement>(closeGarage, closeButton);
  const headingId = useId();
  const use = (id: string | null) => {
    chooseCar(id);
    closeGarage();
  };

  return createPortal(
    <div
      className="garage-panel__backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) closeGarage();
      }}
    >
      <div
        ref={dialog.ref}
        className="garage-panel"
        role="dialog"
        aria-modal="true"
        aria-labelledby={headingId}
        onKeyDown={dialog.onKeyDown}
      >
        <div className="garage-panel__head">
          <h2 id={headingId}>{t('title')}</h2>
          <button ref={closeButton} type="button" className="garage-panel__close" aria-label={t('close')} onClick={closeGarage}>
            <span aria-hidden="true">×</span>
          </button>
        </div>
        <div className="garage-panel__body">
          {adding ? (
            <VehiclePicker
              onChosen={(car) => {
                addCar(car);
                closeGarage();
              }}
              onCancel={cars.length > 0 ? () => setAdding(false) : undefined}
            />
          ) : (
            <>
              <h3>{t('cars')}</h3>
              <ul className="garage-list">
                {cars.map((car) => (
                  <li key={car.id} className="garage-list__car">
                    <button type="button" className="garage-choice" aria-pressed={current?.id === car.id} onClick={() => use(car.id)}>
                      {carName(car)}
                    </button>
                    <button
                      type="button"
                      className="garage-list__remove"
                      aria-label={t('remove', { car: carName(car) })}
                      onClick={() => removeCar(car.id)}
                    >
                      <span aria-hidden="true">×</span>
                    </button>
                  </li>
                ))}
              </ul>
              <button type="button" className="garage-choice" aria-pressed={current === null} onClick={() => use(null)}>
                {t('none')}
              </button>
              {cars.length >= GARAGE_MAX_CARS ? <p className="garage-panel__note">{t('full')}</p> : null}
              <button type="button" className="button garage-panel__add" onClick={() => setAdding(true)}>
                {t('add')}
              </button>
            </>
          )}
        </div>
      </div>
    </div>,
    document.body,
  );
}
