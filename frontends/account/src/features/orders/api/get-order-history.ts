// GET /api/get/orderhistory/{userId}?page={n}: one page of the customer's orders, newest first.
import { authorizedFetch, type OrderHistoryOk } from '@marque/session';
import { outcome } from '../../../lib/call';

export function getOrderHistory(userId: string, page: number) {
  return outcome<OrderHistoryOk>(authorizedFetch(`/api/get/orderhistory/${encodeURIComponent(userId)}?page=${page}`));
}
