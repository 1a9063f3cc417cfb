// The customer's rights over their data: GET /api/user/{userId}/export (a copy as JSON, saved as a file) and
// DELETE /api/user/{userId} (the account erased; orders and invoices kept as GST law requires).
import type { Answer } from '@marque/api-client';
import { authorizedFetch } from '@marque/session';
import { outcome, type Outcome } from '../../../lib/call';

export type DataExport = Answer<'GET /api/user/{userId}/export'>;
export type Deleted = Answer<'DELETE /api/user/{userId}'>;

export const EXPORT_FILENAME = 'marque-my-data.json';

export function exportMyData(userId: string): Promise<Outcome<DataExport>> {
  return outcome<DataExport>(authorizedFetch(`/api/user/${encodeURIComponent(userId)}/export`));
}

/** Offers the export to the browser as a file. */
export function saveAsFile(data: DataExport, filename = EXPORT_FILENAME) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function deleteMyAccount(userId: string): Promise<Outcome<Deleted>> {
  return outcome<Deleted>(authorizedFetch(`/api/user/${encodeURIComponent(userId)}`, { method: 'DELETE' }));
}
