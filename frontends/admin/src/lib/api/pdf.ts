// A back-office call answered with a file (a refund's credit note as a PDF, an import's refused rows or the catalog as
// CSV): fetched with the staff token, then saved under a name of the caller's through a temporary blob URL.
import { CLIENT_VALIDATION_HEADER, clientValidation } from '@marque/session';
import { storedStaffToken } from '../session/token';
import { urlOf, type AdminCall, type AdminRequest } from './calls';

/** The PDF `call` answers, or null when it cannot be had (no session, not allowed, not found, the network). */
export function adminPdf<C extends AdminCall & `GET ${string}`>(call: C, request: Pick<AdminRequest<C>, 'path'>): Promise<Blob | null> {
  return adminFile(call, request, 'application/pdf');
}

/** The file of media type `type` that `call` answers, or null when it cannot be had (as for `adminPdf`). */
export async function adminFile<C extends AdminCall & `GET ${string}`>(
  call: C,
  request: Pick<AdminRequest<C>, 'path'>,
  type: string,
): Promise<Blob | null> {
  const headers = new Headers();
  const token = storedStaffToken();
  if (token) headers.set('authorization', `Bearer ${token}`);
  headers.set(CLIENT_VALIDATION_HEADER, clientValidation());
  try {
    const response = await fetch(urlOf(call, request), { headers });
    const answered = response.headers.get('content-type') ?? '';
    if (!response.ok || !answered.startsWith(type)) return null;
    return await response.blob();
  } catch {
    return null;
  }
}

/** Saves `blob` as `filename` through a temporary blob URL and a download link. */
export function saveFile(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
