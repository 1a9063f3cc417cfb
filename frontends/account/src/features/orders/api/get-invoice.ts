// GET /api/get/invoice/{orderId}: the order's GST tax invoice as a PDF, and GET /api/get/creditnote/{orderId}/{refundId}:
// the credit note of one of its refunds, each fetched with the customer's token.
import { authorizedFetch } from '@marque/session';
import { fileOf } from '@marque/session/files';

export { saveFile } from '@marque/session/files';

/** The name a saved invoice gets. */
export const INVOICE_FILENAME = 'invoice.pdf';

/** The name a saved credit note gets. */
export const CREDIT_NOTE_FILENAME = 'credit-note.pdf';

/** The PDF, or null when it cannot be had (no session, not the customer's, the network, not a PDF). */
export function getInvoice(orderId: string): Promise<Blob | null> {
  return fileOf(authorizedFetch(`/api/get/invoice/${encodeURIComponent(orderId)}`), 'application/pdf');
}

/** The credit note of refund `refundId` of the order, as {@link getInvoice}. */
export function getCreditNote(orderId: string, refundId: string): Promise<Blob | null> {
  return fileOf(authorizedFetch(`/api/get/creditnote/${encodeURIComponent(orderId)}/${encodeURIComponent(refundId)}`), 'application/pdf');
}
