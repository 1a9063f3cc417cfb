// What a remote slot shows when its remote could not be loaded or broke: a short notice and a retry.
import { useContext } from 'react';
import { RemoteSlotContext } from './remote-slot-context';

export function RemoteUnavailable() {
  const slot = useContext(RemoteSlotContext);
  return (
    <div className="remote-unavailable" role="alert">
      <p>This part of the shop could not be loaded. Please try again.</p>
      {slot ? (
        <button type="button" className="button" onClick={slot.retry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}
