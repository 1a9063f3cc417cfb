// GET /api/get/orderhistory/{userId}?page={n}: one page of the customer's orders, newest first.
import type { Answer } from '@marque/api-client';
import { authorizedFetch } from '@marque/session';
import { outcome } from '../../../lib/call';

/** The call's URL (the server writes its answer into a signed-in customer's page: keep them alike). */
export function orderHistoryUrl(userId: string, page: number): string {
  return `/api/get/orderhistory/${encodeURIComponent(userId)}?page=${page}`;
}

export function getOrderHistory(userId: string, page: number) {
  return outcome<Answer<'GET /api/get/orderhistory/{userId}'>>(authorizedFetch(orderHistoryUrl(userId, page)));
}
