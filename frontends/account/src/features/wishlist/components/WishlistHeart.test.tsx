import { failed, networkDown } from '@marque/api-client/testing';
import { resetSession, signIn } from '@marque/session/testing';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { accountServer } from '../../../test/server';
import type { HeartPlace } from '@marque/ui';
import { WishlistHeart } from './WishlistHeart';

const product = {
  _id: 'p9',
  name: 'Audi A4 brake pad set',
  price: 5600,
  quantity: 4,
  producttype: 'new',
  images: [{ name: '/media/p9.webp' }],
};

beforeEach(() => resetSession());

describe('the wishlist heart', () => {
  it.each<[HeartPlace, string]>([
    ['card', 'Please login before entering parts to your wishlist.'],
    ['detail', 'Please login to use wishlist.'],
  ])('on a %s asks a visitor to log in, in the page', async (place, message) => {
    const server = accountServer();
    render(<WishlistHeart product={product} place={place} />);
    await userEvent.click(screen.getByRole('button', { name: 'Add Audi A4 brake pad set to your wishlist' }));
    expect(screen.getByRole('alert').textContent).toBe(message);
    expect(server.calls).toEqual([]);
  });

  it('adds with an outline heart and removes with a filled one', async () => {
    const server = accountServer({
      'POST /api/add/wishlist': () => ({ status: 'success' }),
      'DELETE /api/remove/wishlist/{productId}': () => ({ status: 'success' }),
    });
    signIn();
    render(<WishlistHeart product={product} place="card" />);
    await userEvent.click(screen.getByRole('button', { name: 'Add Audi A4 brake pad set to your wishlist' }));
    const filled = await screen.findByRole('button', { name: 'Remove Audi A4 brake pad set from your wishlist' });
    expect(filled.querySelector('path')?.getAttribute('fill')).toBe('currentColor');
    expect(server.calls.find((c) => c.method === 'POST')?.body).toEqual({
      _id: 'p9',
      name: 'Audi A4 brake pad set',
      quantity: 4,
      producttype: 'new',
      price: 5600,
      image: '/media/p9.webp',
      user_id: 'u1',
    });

    await userEvent.click(filled);
    const outline = await screen.findByRole('button', { name: 'Add Audi A4 brake pad set to your wishlist' });
    expect(outline.querySelector('path')?.getAttribute('fill')).toBe('none');
    expect(server.calls.some((c) => c.method === 'DELETE' && c.path === '/api/remove/wishlist/p9')).toBe(true);
  });

  it('agrees with every other heart of the same product', async () => {
    accountServer({ 'POST /api/add/wishlist': () => ({ status: 'success' }) });
    signIn();
    render(
      <>
        <WishlistHeart product={product} place="card" />
        <WishlistHeart product={product} place="detail" />
      </>,
    );
    const [first] = screen.getAllByRole('button', { name: 'Add Audi A4 brake pad set to your wishlist' });
    await userEvent.click(first!);
    await waitFor(() =>
      expect(screen.getAllByRole('button', { name: 'Remove Audi A4 brake pad set from your wishlist' })).toHaveLength(2),
    );
  });

  it.each<[HeartPlace, string]>([
    ['card', 'Your wishlist is full! Kindly remove some products from wishlist.'],
    ['detail', 'Wishlist full! Remove items to add more.'],
  ])('on a %s says the wishlist is full', async (place, message) => {
    accountServer({ 'POST /api/add/wishlist': () => failed(400, 'Wishlist is full', 'wishlist.full') });
    signIn();
    render(<WishlistHeart product={product} place={place} />);
    await userEvent.click(screen.getByRole('button', { name: 'Add Audi A4 brake pad set to your wishlist' }));
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect(screen.getByRole('button', { name: 'Add Audi A4 brake pad set to your wishlist' })).toBeTruthy();
  });

  it.each<[string, () => Response, string]>([
    ['a product that is gone (404)', () => failed(404, 'Product Not Found', 'catalog.not_found'), 'Product Not Found'],
    ['too many calls (429)', () => failed(429, 'Too many requests.', 'request.too_many'), 'Too many requests. Please wait a moment and try again.'],
    ['an outage (503 without a code)', () => failed(503, 'Service Unavailable'), 'Something went wrong. Please try again.'],
    ['no answer at all', () => networkDown(), 'Something went wrong. Please try again.'],
  ])('does not call the wishlist full on %s', async (_, answer, message) => {
    accountServer({ 'POST /api/add/wishlist': answer });
    signIn();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(<WishlistHeart product={product} place="card" />);
    await userEvent.click(screen.getByRole('button', { name: 'Add Audi A4 brake pad set to your wishlist' }));
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect(screen.getByRole('button', { name: 'Add Audi A4 brake pad set to your wishlist' })).toBeTruthy();
  });
});
