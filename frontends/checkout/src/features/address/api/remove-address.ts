// DELETE /api/remove/{userId}/address/{addressId}.
import { authorizedFetch, outcome } from '@marque/session';
import type { Answer } from '@marque/api-client';

export function removeAddress(userId: string, addressId: string) {
  const path = `/api/remove/${encodeURIComponent(userId)}/address/${encodeURIComponent(addressId)}`;
  return outcome<Answer<'DELETE /api/remove/{userId}/address/{addressId}'>>(authorizedFetch(path, { method: 'DELETE' }));
}
