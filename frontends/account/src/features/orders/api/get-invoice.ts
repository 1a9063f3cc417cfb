// GET /api/get/invoice/{orderId}: the order's GST tax invoice as a PDF, and GET /api/get/creditnote/{orderId}/{refundId}:
// the credit note of one of its refunds, each fetched with the customer's token.
import { authorizedFetch } from '@marque/session';

/** The name a saved invoice gets. */
export const INVOICE_FILENAME = 'invoice.pdf';

/** The name a saved credit note gets. */
export const CREDIT_NOTE_FILENAME = 'credit-note.pdf';

/** The PDF, or null when it cannot be had (no session, not the customer's, the network, not a PDF). */
export function getInvoice(orderId: string): Promise<Blob | null> {
  return getPdf(`/api/get/invoice/${encodeURIComponent(orderId)}`);
}

/** The credit note of refund `refundId` of the order, as {@link getInvoice}. */
export function getCreditNote(orderId: string, refundId: string): Promise<Blob | null> {
  return getPdf(`/api/get/creditnote/${encodeURIComponent(orderId)}/${encodeURIComponent(refundId)}`);
}

async function getPdf(path: string): Promise<Blob | null> {
  try {
    const response = await authorizedFetch(path);
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok || !type.startsWith('application/pdf')) return null;
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
  // Give the browser the time to start the download before the URL goes.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
