// PATCH /api/add/address/{userId} and PATCH /api/edit/address/{addressId}: an address saved; 400 lists every bad field.
import { authorizedFetch, jsonBody, outcome } from '@marque/session';
import type { AddressesOk, AddressFields } from '../../../lib/api-types';

export function addAddress(userId: string, fields: AddressFields) {
  return outcome<AddressesOk>(authorizedFetch(`/api/add/address/${encodeURIComponent(userId)}`, jsonBody('PATCH', fields)));
}

export function editAddress(addressId: string, fields: AddressFields) {
  return outcome<AddressesOk>(authorizedFetch(`/api/edit/address/${encodeURIComponent(addressId)}`, jsonBody('PATCH', fields)));
}
