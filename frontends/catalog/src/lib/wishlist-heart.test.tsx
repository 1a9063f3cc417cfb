import { getInstance } from '@module-federation/enhanced/runtime';
import { resetSession, signIn } from '@marque/session/testing';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { WishlistHeartSlot, forgetHeart } from './wishlist-heart';

vi.mock('@module-federation/enhanced/runtime', () => ({ getInstance: vi.fn() }));
const instance = vi.mocked(getInstance);

const product = { _id: 'p1', name: 'Pump', price: 100, quantity: 1, producttype: 'new', images: [] };

beforeEach(() => {
  forgetHeart();
  instance.mockReset();
  signIn();
});

describe('the wishlist heart slot', () => {
  it("shows the account remote's heart with the product and its place", async () => {
    const loadRemote = vi.fn(async () => ({
      default: ({ product: p, place }: { product: { name: string }; place: string }) => (
        <button type="button">{`${p.name} ${place}`}</button>
      ),
    }));
    instance.mockReturnValue({ options: { remotes: [{ name: 'account' }] }, loadRemote } as never);
    render(<WishlistHeartSlot product={product} place="card" />);
    expect(await screen.findByRole('button', { name: 'Pump card' })).toBeTruthy();
    expect(loadRemote).toHaveBeenCalledWith('account/WishlistHeart');
  });

  it('is simply absent when the account remote cannot be loaded', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const loadRemote = vi.fn(async () => {
      throw new Error('RUNTIME-008');
    });
    instance.mockReturnValue({ options: { remotes: [{ name: 'account' }] }, loadRemote } as never);
    const { container } = render(<WishlistHeartSlot product={product} place="detail" />);
    await vi.waitFor(() => expect(loadRemote).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(container.innerHTML).toBe('');
  });

  it("draws a visitor's heart itself, answering with the login message, without loading the account remote", async () => {
    resetSession();
    render(<WishlistHeartSlot product={product} place="card" />);
    await userEvent.click(screen.getByRole('button', { name: 'Add Pump to your wishlist' }));
    expect(screen.getByRole('alert').textContent).toBe('Please login before entering parts to your wishlist.');
    expect(instance).not.toHaveBeenCalled();
  });
});
