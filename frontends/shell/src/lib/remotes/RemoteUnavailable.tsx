// What a remote slot shows when its remote could not be loaded or broke: a short notice and a retry.
import { useT } from '@marque/i18n';
import { useContext } from 'react';
import { RemoteSlotContext } from './remote-slot-context';

export function RemoteUnavailable() {
  const t = useT('shell');
  const slot = useContext(RemoteSlotContext);
  return (
    <div className="remote-unavailable" role="alert">
      <p>{t('remote.unavailable')}</p>
      {slot ? (
        <button type="button" className="button" onClick={slot.retry}>
          {t('remote.retry')}
        </button>
      ) : null}
    </div>
  );
}
