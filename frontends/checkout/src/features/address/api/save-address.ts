// PATCH /api/add/address/{userId} and PATCH /api/edit/address/{addressId}: an address saved; 400 lists every bad field.
import { authorizedFetch, jsonBody, outcome } from '@marque/session';
import type { Answer, RequestBody } from '@marque/api-client';

/** The address fields a form sends (the document's address form, every field given). */
export type AddressFields = Required<RequestBody<'PATCH /api/add/address/{userId}'>>;

export function addAddress(userId: string, fields: AddressFields) {
  return outcome<Answer<'PATCH /api/add/address/{userId}'>>(
    authorizedFetch(`/api/add/address/${encodeURIComponent(userId)}`, jsonBody('PATCH /api/add/address/{userId}', fields)),
  );
}

export function editAddress(addressId: string, fields: AddressFields) {
  return outcome<Answer<'PATCH /api/edit/address/{addressId}'>>(
    authorizedFetch(`/api/edit/address/${encodeURIComponent(addressId)}`, jsonBody('PATCH /api/edit/address/{addressId}', fields)),
  );
}
