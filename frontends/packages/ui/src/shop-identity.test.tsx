import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { embedShopIdentity, parseShopIdentity, shopIdentity, UNKNOWN_SHOP, useShopIdentity } from './shop-identity';
import { embedTestShop, TEST_SHOP } from './testing';
import { documentTitle } from './useDocumentTitle';

function Contact() {
  const shop = useShopIdentity();
  return <p>{shop.supportEmail || 'none'}</p>;
}

afterEach(() => embedShopIdentity(null));

describe('the shop identity', () => {
  it('is read from the JSON the server embeds in the page', () => {
    embedTestShop();
    expect(document.getElementById('marque-shop')?.getAttribute('type')).toBe('application/json');
    expect(shopIdentity()).toEqual(TEST_SHOP);
    render(<Contact />);
    expect(screen.getByText('care@marqueparts.in')).toBeTruthy();
  });

  it('says whether a third-party sign-in is offered, and only one that starts on this origin', () => {
    const with_ = (signIn: unknown) => parseShopIdentity({ ...TEST_SHOP, signIn })?.signIn;
    expect(with_({ provider: 'google', start: '/api/google' })).toEqual({ provider: 'google', start: '/api/google' });
    expect(with_(null)).toBeNull();
    expect(with_(undefined)).toBeNull();
    expect(with_({ provider: 'google', start: 'https://evil.example/' })).toBeNull();
    expect(with_({ provider: 'google', start: '//evil.example/' })).toBeNull();
    expect(UNKNOWN_SHOP.signIn).toBeNull();
  });

  it('is read once and remembered', () => {
    embedTestShop();
    const first = shopIdentity();
    document.getElementById('marque-shop')!.textContent = JSON.stringify({ ...TEST_SHOP, name: 'Changed' });
    expect(shopIdentity()).toBe(first);
  });

  it('names the pages after the shop', () => {
    embedTestShop({ name: 'Marque Spares' });
    expect(documentTitle('About us')).toBe('About us - Marque Spares');
    expect(documentTitle()).toBe('Marque Spares');
  });

  it('accepts a shop without chat and normalises its number to digits', () => {
    expect(parseShopIdentity({ ...TEST_SHOP, chatNumber: null })?.chatNumber).toBeNull();
    expect(parseShopIdentity({ ...TEST_SHOP, chatNumber: '+91 98100-12345' })?.chatNumber).toBe('919810012345');
    expect(parseShopIdentity({ catalog: '/remotes' })).toBeNull();
    expect(parseShopIdentity([TEST_SHOP])).toBeNull();
  });

  it('asks GET /api/get/shop when the page carries none, and shows no made-up details meanwhile', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => Response.json(TEST_SHOP));
    expect(shopIdentity()).toEqual(UNKNOWN_SHOP);
    render(<Contact />);
    expect(screen.getByText('none')).toBeTruthy();
    expect(await screen.findByText('care@marqueparts.in')).toBeTruthy();
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(String(fetch.mock.calls[0]?.[0])).toBe('/api/get/shop');
    await waitFor(() => expect(shopIdentity()).toEqual(TEST_SHOP));
  });
});
