import { failed, fakeServer, type FakeServer } from '@marque/api-client/testing';
import { setLanguage } from '@marque/i18n';
import { TITLE_LIMITS, truncateTitle } from '@marque/rules';
import { render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { aBrand, aHotSellingItem, aProduct } from '../../../test/fixtures';
import { HomePage } from './HomePage';

let server: FakeServer | undefined;
afterEach(() => server?.restore());

const longName = 'Mercedes-Benz W213 E-Class Left Headlamp Multibeam LED Complete Unit';

describe('HomePage', () => {
  it('shows the headline, both product lists and the brand strip', async () => {
    server = fakeServer({
      '/api/get/new-products': () => ({ status: 'success', data: [aProduct({ _id: 'p-1', name: longName })] }),
      '/api/get/suggestion': () => ({ status: 'success', result: [aHotSellingItem()] }),
      '/api/get/brand/oem': () => ({ status: 'success', data: [aBrand({ name: 'Porsche', slug: 'porsche' })] }),
      '/api/get/category': () => ({ status: 'success', data: [] }),
    });
    render(<HomePage />);

    expect(
      screen.getByRole('heading', { level: 1, name: 'Marketplace for New & Used Spare Parts for Luxury Cars' }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Shop now' }).getAttribute('href')).toBe('/search?search=&page=1');

    const recent = (await screen.findByRole('heading', { name: 'Recently Added Products' })).closest('section')!;
    const recentLink = within(recent).getByRole('link', { name: truncateTitle(longName, TITLE_LIMITS.homeCard) });
    expect(recentLink.getAttribute('href')).toBe('/product?productId=p-1');

    const hot = (await screen.findByRole('heading', { name: 'Hot Selling Products' })).closest('section')!;
    const hotTitle = aHotSellingItem()._id;
    const hotLink = within(hot).getByRole('link', { name: truncateTitle(hotTitle, TITLE_LIMITS.hotSelling) });
    expect(hotLink.getAttribute('href')).toBe('/product?productId=p-9');
    expect(within(hot).getByText('₹64,500')).toBeTruthy();

    const porsche = await screen.findByRole('link', { name: 'Porsche' });
    expect(porsche.getAttribute('href')).toBe('/brand/porsche?page=1');
    await waitFor(() => expect(document.title).toBe('Marque Parts'));
  });

  it('paints the headline in the first frame and the lists one frame later, even with their answers at hand', async () => {
    // Fresh modules: the first paint is remembered once it happened, in an earlier test.
    vi.resetModules();
    const { INITIAL_DATA_ELEMENT_ID, forgetInitialAnswers } = await import('@marque/api-client');
    const { HomePage } = await import('./HomePage');
    const script = document.createElement('script');
    script.id = INITIAL_DATA_ELEMENT_ID;
    script.type = 'application/json';
    script.textContent = JSON.stringify([
      { path: '/api/get/new-products', query: {}, body: { status: 'success', data: [aProduct({ _id: 'p-1', name: longName })] } },
    ]);
    document.head.append(script);
    forgetInitialAnswers();
    server = fakeServer({
      '/api/get/new-products': () => ({ status: 'success', data: [] }),
      '/api/get/suggestion': () => ({ status: 'success', result: [] }),
      '/api/get/brand/oem': () => ({ status: 'success', data: [] }),
      '/api/get/category': () => ({ status: 'success', data: [] }),
    });
    try {
      render(<HomePage />);
      expect(screen.getByRole('heading', { level: 1 })).toBeTruthy();
      expect(screen.queryByRole('heading', { name: 'Recently Added Products' })).toBeNull();
      expect(await screen.findByRole('heading', { name: 'Recently Added Products' })).toBeTruthy();
      expect(server.requests.filter((r) => r.startsWith('/api/get/new-products'))).toEqual([]);
    } finally {
      script.remove();
      forgetInitialAnswers();
    }
  });

  it('leaves out a list that is empty or failed to load', async () => {
    server = fakeServer({
      '/api/get/new-products': () => ({ status: 'success', data: [] }),
      '/api/get/suggestion': () => failed(500, 'database unavailable'),
      '/api/get/brand/oem': () => ({ status: 'success', data: [aBrand()] }),
      '/api/get/category': () => ({ status: 'success', data: [] }),
    });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    render(<HomePage />);

    // Wait until every list has been answered: the failure is logged, the brands are shown.
    await screen.findByRole('link', { name: 'BMW' });
    await waitFor(() => expect(logged).toHaveBeenCalledWith(expect.objectContaining({ status: 500 })));
    expect(screen.queryByRole('heading', { name: 'Recently Added Products' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Hot Selling Products' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Shop now' })).toBeTruthy();
  });

  it('speaks Hindi when the visitor chose it', async () => {
    server = fakeServer({
      '/api/get/new-products': () => ({ status: 'success', data: [] }),
      '/api/get/suggestion': () => ({ status: 'success', result: [] }),
      '/api/get/brand/oem': () => ({ status: 'success', data: [] }),
      '/api/get/category': () => ({ status: 'success', data: [] }),
    });
    await setLanguage('hi');
    try {
      render(<HomePage />);
      expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(
        'लग्ज़री कारों के नए और पुराने स्पेयर पार्ट्स का बाज़ार',
      );
      expect(screen.getByRole('button', { name: 'स्लाइड शो रोकें' })).toBeTruthy();
      expect(screen.getByRole('group', { name: '4 में से 1' })).toBeTruthy();
      expect(screen.getByRole('button', { name: 'खोजें' })).toBeTruthy();
    } finally {
      await setLanguage('en');
      localStorage.clear();
    }
  });
});
