import { getCart, openCartPanel, type CartLine } from '@marque/cart';
import { resetCart, testLine } from '@marque/cart/testing';
import { resetSession, signIn } from '@marque/session/testing';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { checkoutItem, checkoutServer } from '../../../test/server';
import { CartButton } from './CartButton';
import { CartPanel } from './CartPanel';

function openWith(lines: CartLine[]) {
  resetCart(lines);
  render(
    <>
      <CartButton />
      <CartPanel />
    </>,
  );
}

beforeEach(() => resetSession());

describe('the cart panel', () => {
  it('opens from the header icon, shows each line with its price and the subtotal including GST', async () => {
    checkoutServer([checkoutItem(), checkoutItem({ _id: 'p2', name: 'Oil filter', price: 450 })]);
    openWith([testLine({ quantity: 2 }), testLine({ _id: 'p2', name: 'Oil filter', price: 450 })]);
    await userEvent.click(screen.getByRole('button', { name: 'Cart, 2 items' }));
    const dialog = screen.getByRole('dialog', { name: 'Your cart' });
    expect(within(dialog).getAllByText('inc. GST')).toHaveLength(3);
    expect(dialog.querySelector('.cart-panel__subtotal')?.textContent).toBe('Subtotal ₹5,448 inc. GST');
  });

  it('changes quantities (never below 1) and removes lines, in local storage too', async () => {
    checkoutServer([checkoutItem()]);
    openWith([testLine()]);
    act(() => openCartPanel());
    const less = screen.getByRole('button', { name: 'One less Brake pad set' });
    expect((less as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'One more Brake pad set' }));
    await userEvent.click(screen.getByRole('button', { name: 'One more Brake pad set' }));
    expect(getCart().lines[0]?.quantity).toBe(3);
    await userEvent.click(less);
    expect(JSON.parse(localStorage.getItem('products') ?? '[]')[0].quantity).toBe(2);
    await userEvent.click(screen.getByRole('button', { name: 'Remove Brake pad set from the cart' }));
    expect(screen.getByText('Your cart is empty.')).toBeTruthy();
    expect(localStorage.getItem('products')).toBeNull();
  });

  it("says 'please! add product to cart.' on CHECKOUT with an empty cart", async () => {
    checkoutServer();
    openWith([]);
    act(() => openCartPanel());
    await userEvent.click(screen.getByRole('button', { name: 'CHECKOUT' }));
    expect(screen.getByRole('alert').textContent).toBe('please! add product to cart.');
    expect(window.location.pathname).toBe('/');
  });

  it('sends a visitor to log in (the Authorize step) and a customer to /address', async () => {
    checkoutServer([checkoutItem()]);
    openWith([testLine()]);
    act(() => openCartPanel());
    await userEvent.click(screen.getByRole('button', { name: 'CHECKOUT' }));
    expect(window.location.pathname).toBe('/login');
    expect(screen.queryByRole('dialog')).toBeNull();

    signIn();
    act(() => openCartPanel());
    await userEvent.click(screen.getByRole('button', { name: 'CHECKOUT' }));
    expect(window.location.pathname).toBe('/address');
  });

  it('asks the server for each line: a removed product is no longer available, a new price shows as changed', async () => {
    checkoutServer([checkoutItem({ price: 2999 })]);
    openWith([testLine({ price: 2499 }), testLine({ _id: 'gone', name: 'Old mirror', price: 100 })]);
    act(() => openCartPanel());
    expect(await screen.findByText('Price changed (was ₹2,499)')).toBeTruthy();
    expect(await screen.findByText('No longer available')).toBeTruthy();
    const dialog = screen.getByRole('dialog');
    // What is gone is not counted, and the subtotal is at the server's price.
    expect(dialog.querySelector('.cart-panel__subtotal')?.textContent).toBe('Subtotal ₹2,999 inc. GST');
  });

  it('is a modal dialog: Esc closes it and focus goes back to the cart icon', async () => {
    checkoutServer();
    openWith([]);
    const icon = screen.getByRole('button', { name: 'Cart, 0 items' });
    await userEvent.click(icon);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close cart' }));
    await userEvent.tab();
    await userEvent.tab();
    expect(screen.getByRole('dialog').contains(document.activeElement)).toBe(true);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(icon);
  });
});
