import { getCart, selectAddress, startPurchase, type Address } from '@marque/cart';
import { resetCart, testLine } from '@marque/cart/testing';
import { resetSession, signIn, TEST_USER } from '@marque/session/testing';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { checkoutItem, checkoutServer } from '../../../test/server';
import { AddressPage } from './AddressPage';

const HOME: Address = { _id: 'a1', houseNo: '12', street: 'Ring Road', landmark: '', city: 'New Delhi', state: 'Delhi', mobileNo: '9811122233', pincode: '110001', gstin: '' };
const OFFICE: Address = { ...HOME, _id: 'a2', houseNo: '7B', city: 'Pune', state: 'Maharashtra', pincode: '411001' };

/** A customer whose addresses the fake server keeps, answering the address calls and GET /api/user from them. */
function customerWith(addresses: Address[], extra: Parameters<typeof checkoutServer>[1] = {}) {
  let book = [...addresses];
  signIn({ address: book });
  const server = checkoutServer([checkoutItem({ totalQuantity: 2 })], {
    'GET /api/user': () => ({ status: 'success', user: { ...TEST_USER, address: book } }),
    'PATCH /api/add/address/{userId}': ({ body }) => {
      const added = { ...(body as Address), _id: 'a9' };
      book = [...book, added];
      return { status: 'success', message: 'address added successfully', _id: 'a9', address: book };
    },
    'PATCH /api/edit/address/{addressId}': ({ params, body }) => {
      const id = params.addressId ?? '';
      const edited = { ...(body as Address), _id: id };
      book = book.map((a) => (a._id === id ? edited : a));
      return { status: 'success', message: 'address updated successfully', _id: id, address: edited };
    },
    'DELETE /api/remove/{userId}/address/{addressId}': ({ params }) => {
      book = book.filter((a) => a._id !== params.addressId);
      return { status: 'success', address: book };
    },
    ...extra,
  });
  window.history.replaceState(null, '', '/address');
  render(<AddressPage />);
  return server;
}

const field = (name: string) => screen.getByLabelText(name) as HTMLInputElement;

beforeEach(() => {
  resetSession();
  resetCart([testLine()]);
});

describe('the address page', () => {
  it('sends a visitor to /login', () => {
    checkoutServer();
    window.history.replaceState(null, '', '/address');
    render(<AddressPage />);
    expect(window.location.pathname).toBe('/login');
  });

  it('shows the steps without Authorize, the saved addresses to choose from, and BACK reopens the cart', async () => {
    customerWith([HOME, OFFICE]);
    const steps = screen.getByRole('list', { name: 'Checkout steps' });
    expect(within(steps).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Cart', 'Address', 'Review', 'Pay']);
    await userEvent.click(screen.getByRole('radio', { name: /7B, Ring Road, Pune/ }));
    expect(getCart().address?._id).toBe('a2');
    await userEvent.click(screen.getByRole('button', { name: 'BACK' }));
    expect(getCart().panelOpen).toBe(true);
  });

  it('checks each field as it is typed, ties the message to the field, and adds a valid address', async () => {
    const server = customerWith([]);
    await userEvent.click(screen.getByRole('button', { name: 'Add a new address' }));
    await userEvent.type(field('Pincode'), '012345');
    expect(screen.getByText('Enter a valid 6-digit pincode')).toBeTruthy();
    expect(field('Pincode').getAttribute('aria-describedby')).toBe(screen.getByText('Enter a valid 6-digit pincode').id);
    await userEvent.type(field('Mobile number'), '12345');
    expect(screen.getByText('Enter a valid 10-digit Indian mobile number starting with 6-9')).toBeTruthy();
    await userEvent.type(field('GSTIN (optional, for business purchases)'), '07AAKCM4821R1ZX');
    expect(screen.getByText('Enter a valid 15-character GSTIN')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Save address' }));
    expect(screen.getByText('House No. is required')).toBeTruthy();
    expect(screen.getByText('State is required')).toBeTruthy();
    expect(server.calls.some((c) => c.method === 'PATCH')).toBe(false);

    await userEvent.type(field('House No.'), '4');
    await userEvent.type(field('City'), 'Noida');
    await userEvent.selectOptions(field('State'), 'Uttar Pradesh');
    await userEvent.clear(field('Pincode'));
    await userEvent.type(field('Pincode'), '201301');
    await userEvent.clear(field('Mobile number'));
    await userEvent.type(field('Mobile number'), '9876543210');
    await userEvent.clear(field('GSTIN (optional, for business purchases)'));
    expect(screen.queryAllByRole('alert')).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Save address' }));
    expect(await screen.findByText('address added successfully')).toBeTruthy();
    expect(server.calls.find((c) => c.method === 'PATCH')?.body).toEqual({
      houseNo: '4', street: '', landmark: '', city: 'Noida', state: 'Uttar Pradesh', mobileNo: '9876543210', pincode: '201301', gstin: '',
    });
    expect(await screen.findByRole('radio', { name: /4, Noida, Uttar Pradesh, 201301/ })).toBeTruthy();
    expect(getCart().address?._id).toBe('a9');
  });

  it("shows the server's field errors under their fields", async () => {
    customerWith([HOME], {
      'PATCH /api/edit/address/{addressId}': () =>
        Response.json(
          { status: 'failed', message: 'Enter a valid 6-digit pincode', code: 'pincode.invalid', errors: [{ field: 'pincode', message: 'Enter a valid 6-digit pincode', code: 'pincode.invalid' }] },
          { status: 400 },
        ),
    });
    await userEvent.click(screen.getByRole('button', { name: /Edit the address 12, Ring Road/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Save address' }));
    const message = await screen.findByText('Enter a valid 6-digit pincode');
    expect(field('Pincode').getAttribute('aria-describedby')).toBe(message.id);
    expect(field('Pincode').getAttribute('aria-invalid')).toBe('true');
  });

  it("edits an address and says 'address updated successfully'", async () => {
    customerWith([HOME]);
    selectAddress(HOME);
    await userEvent.click(screen.getByRole('button', { name: /Edit the address 12, Ring Road/ }));
    await userEvent.clear(field('City'));
    await userEvent.type(field('City'), 'Delhi Cantt');
    await userEvent.click(screen.getByRole('button', { name: 'Save address' }));
    expect((await screen.findByRole('status')).textContent).toBe('address updated successfully');
    expect(await screen.findByRole('radio', { name: /Delhi Cantt/ })).toBeTruthy();
    expect(getCart().address?.city).toBe('Delhi Cantt');
  });

  it("deletes an address only after 'Do you want to delete address?'", async () => {
    const server = customerWith([HOME, OFFICE]);
    await userEvent.click(screen.getByRole('button', { name: /Delete the address 7B/ }));
    const dialog = screen.getByRole('dialog', { name: 'Do you want to delete address?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'No' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(server.calls.some((c) => c.method === 'DELETE')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: /Delete the address 7B/ }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Yes, delete' }));
    await screen.findByRole('radio', { name: /12, Ring Road/ });
    await vi.waitFor(() => expect(screen.queryByRole('radio', { name: /7B/ })).toBeNull());
    expect(server.calls.find((c) => c.method === 'DELETE')?.path).toBe('/api/remove/u1/address/a2');
  });
});

describe('NEXT', () => {
  it('needs a chosen address', async () => {
    customerWith([HOME]);
    await userEvent.click(screen.getByRole('button', { name: 'NEXT' }));
    expect(screen.getByRole('alert').textContent).toBe('Please select address for further process');
  });

  it('needs something in the cart', async () => {
    resetCart();
    customerWith([HOME]);
    selectAddress(HOME);
    await userEvent.click(screen.getByRole('button', { name: 'NEXT' }));
    expect(screen.getByRole('alert').textContent).toBe('please! add product to cart.');
  });

  it('needs every quantity within the stock the server has now', async () => {
    resetCart([testLine({ quantity: 3 })]);
    customerWith([HOME]);
    selectAddress(HOME);
    await userEvent.click(screen.getByRole('button', { name: 'NEXT' }));
    expect((await screen.findByRole('alert')).textContent).toBe('please order products which are in stock');
    expect(window.location.pathname).toBe('/address');
  });

  it('reloads the lines, keeps them for review with the chosen quantity and goes to /review', async () => {
    resetCart([testLine({ quantity: 2 })]);
    customerWith([HOME]);
    selectAddress(HOME);
    await userEvent.click(screen.getByRole('button', { name: 'NEXT' }));
    await vi.waitFor(() => expect(window.location.pathname).toBe('/review'));
    expect(getCart().review).toEqual([checkoutItem({ totalQuantity: 2, quantity: 2 })]);
  });

  it('buys only the direct purchase when one is pending', async () => {
    resetCart([testLine({ _id: 'elsewhere' })]);
    customerWith([HOME]);
    selectAddress(HOME);
    startPurchase(testLine(), 1);
    await userEvent.click(screen.getByRole('button', { name: 'NEXT' }));
    await vi.waitFor(() => expect(window.location.pathname).toBe('/review'));
    expect(getCart().review?.map((i) => [i._id, i.quantity])).toEqual([['p1', 1]]);
  });
});

