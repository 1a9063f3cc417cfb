// DELETE /api/remove/{userId}/address/{addressId}.
import { authorizedFetch, outcome } from '@marque/session';
import type { AddressesOk } from '../../../lib/api-types';

export function removeAddress(userId: string, addressId: string) {
  const path = `/api/remove/${encodeURIComponent(userId)}/address/${encodeURIComponent(addressId)}`;
  return outcome<AddressesOk>(authorizedFetch(path, { method: 'DELETE' }));
}
