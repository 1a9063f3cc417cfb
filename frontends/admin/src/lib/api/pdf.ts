// A back-office call answered with a file (a refund's credit note as a PDF, an import's refused rows or the catalog as
// CSV), fetched with the staff token; saved under a name of the caller's with `saveFile`.
import { CLIENT_VALIDATION_HEADER, clientValidation } from '@marque/session';
import { fileOf } from '@marque/session/files';
import { storedStaffToken } from '../session/token';
import { urlOf, type AdminCall, type AdminRequest } from './calls';

export { saveFile } from '@marque/session/files';

/** The PDF `call` answers, or null when it cannot be had (no session, not allowed, not found, the network). */
export function adminPdf<C extends AdminCall & `GET ${string}`>(call: C, request: Pick<AdminRequest<C>, 'path'>): Promise<Blob | null> {
  return adminFile(call, request, 'application/pdf');
}

/** The file of media type `type` that `call` answers, or null when it cannot be had (as for `adminPdf`). */
export function adminFile<C extends AdminCall & `GET ${string}`>(call: C, request: Pick<AdminRequest<C>, 'path'>, type: string): Promise<Blob | null> {
  const headers = new Headers();
  const token = storedStaffToken();
  if (token) headers.set('authorization', `Bearer ${token}`);
  headers.set(CLIENT_VALIDATION_HEADER, clientValidation());
  return fileOf(fetch(urlOf(call, request), { headers }), type);
}
