// Orders and a PDF answer as the server gives them, for the purchase history and invoice tests.
import type { Order } from '@marque/api-client';
import { vi } from 'vitest';

export const LONG_NAME = 'LED Tail Lamp Assembly, Left, Mercedes-Benz W213 E-Class';

export function order(overrides: Partial<Order> = {}): Order {
  return {
    _id: 'o1',
    orderNumber: 'MQ-000001',
    invoiceNumber: 'MQ/26-27/000001',
    createdAt: '2026-06-01T06:30:00.000Z',
    products: [{ product_id: 'p1', name: 'Oil Filter', quantity: 3, price: 1250.25, gst: 18 }],
    discount: 0,
    discountAmount: 0,
    deliveryCharge: 118,
    total: 3868.75,
    courier: '',
    awb: '',
    order_status: 1,
    order_status_string: 'placed',
    user_name: 'Asha Rao',
    address: {
      houseNo: 'B-12',
      street: 'Ring Road',
      landmark: '',
      city: 'New Delhi',
      state: 'Delhi',
      pincode: '110001',
      mobileNo: '9810012345',
      gstin: '',
    },
    creditNotes: [],
    ...overrides,
  };
}

export function pdfAnswer(): Response {
  // Bytes rather than a Blob: the test DOM's Blob is not the one `Response` reads.
  return new Response(new TextEncoder().encode('%PDF-1.7 invoice'), {
    headers: { 'content-type': 'application/pdf', 'content-disposition': 'inline; filename="invoice.pdf"' },
  });
}

/** Stubs the blob URLs jsdom lacks; returns the blobs they were made of. */
export function stubBlobUrls(): Blob[] {
  for (const name of ['createObjectURL', 'revokeObjectURL'] as const) {
    if (!(name in URL)) Object.defineProperty(URL, name, { value: () => '', configurable: true, writable: true });
  }
  const made: Blob[] = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob: Blob | MediaSource) => {
    made.push(blob as Blob);
    return `blob:invoice-${made.length}`;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  return made;
}
