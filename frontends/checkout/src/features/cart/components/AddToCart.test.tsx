import { getCart, startPurchase } from '@marque/cart';
import { resetCart } from '@marque/cart/testing';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { AddToCart } from './AddToCart';
import { CartButton } from './CartButton';

const pump = { _id: 'p3', name: 'Water pump', price: 7800, quantity: 4, producttype: 'old', images: [] };

beforeEach(() => resetCart());

describe('Add to cart', () => {
  it("adds one and becomes 'Go to cart', which opens the panel", async () => {
    render(
      <>
        <CartButton />
        <AddToCart product={pump} />
      </>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Add to cart' }));
    expect(getCart().lines).toMatchObject([{ _id: 'p3', quantity: 1 }]);
    expect(screen.getByRole('button', { name: 'Cart, 1 items' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Go to cart' }));
    expect(getCart().panelOpen).toBe(true);
  });

  it('shows nothing for a product out of stock', () => {
    const { container } = render(<AddToCart product={{ ...pump, quantity: 0 }} />);
    expect(container.innerHTML).toBe('');
  });

  it('the cart icon hides while a direct purchase is pending', () => {
    render(<CartButton />);
    expect(screen.getByRole('button', { name: 'Cart, 0 items' })).toBeTruthy();
    act(() => startPurchase(pump, 1));
    expect(screen.queryByRole('button')).toBeNull();
  });
});
