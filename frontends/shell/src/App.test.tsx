import { loadRemote } from '@module-federation/runtime';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setLanguage } from '@marque/i18n';
import { embedTestShop, TEST_SHOP } from '@marque/ui/testing';
import { act, type ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from './App';
import { fallbackModule, setFallbackComponent } from './lib/remotes/fallback-registry';
import { RemoteUnavailable } from './lib/remotes/RemoteUnavailable';

// The federation runtime is the boundary here: it stands in for remotes being reachable or not.
vi.mock('@module-federation/runtime', () => ({ loadRemote: vi.fn(), registerRemotes: vi.fn() }));
const remote = vi.mocked(loadRemote);

const FALLBACK_TEXT = 'This part of the shop could not be loaded. Please try again.';

function open(address: string) {
  window.history.replaceState(null, '', address);
  return render(<App />);
}

function expectLayoutWorks() {
  expect(screen.getByPlaceholderText('Enter Part Name / Number')).toBeTruthy();
  expect(screen.getByRole('navigation', { name: 'Car brands' })).toBeTruthy();
}

/** Every catalog page answers `module`; the header's pieces (account menu, cart icon: remotes too) stay empty. */
function answerPages(module: { default: () => ReactNode }) {
  remote.mockImplementation(async (id: string) => (id.startsWith('catalog/') ? module : { default: () => null }));
}

beforeEach(() => {
  embedTestShop();
  remote.mockReset();
  vi.spyOn(globalThis, 'fetch').mockImplementation(async () =>
    Response.json({ catalog: '/remotes/catalog/remoteEntry.js' }),
  );
});

afterEach(async () => {
  await setLanguage('en');
  localStorage.clear();
});

describe('App', () => {
  it('fills the home route from the catalog remote, inside the header and footer', async () => {
    answerPages({ default: () => <h1>Catalog home</h1> });
    open('/');
    expect(await screen.findByRole('heading', { name: 'Catalog home' })).toBeTruthy();
    expect(remote).toHaveBeenCalledWith('catalog/Home');
    expectLayoutWorks();
  });

  it("fills a car brand's page from the catalog remote", async () => {
    answerPages({ default: () => <h1>BMW Spare Parts</h1> });
    open('/brand/bmw?page=2');
    expect(await screen.findByRole('heading', { name: 'BMW Spare Parts' })).toBeTruthy();
    expect(remote).toHaveBeenCalledWith('catalog/Brand');
    expectLayoutWorks();
  });

  it('shows the static pages with their titles', async () => {
    open('/about');
    expect(screen.getByRole('heading', { level: 1, name: 'About us' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('About us - Marque Parts'));

    await userEvent.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Contact us' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Contact us' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Contact us - Marque Parts'));
    expect(window.scrollTo).toHaveBeenLastCalledWith(0, 0);
  });

  it('shows a static page and its title in Hindi once the visitor chooses it', async () => {
    open('/termandcondition');
    await act(() => setLanguage('hi'));
    expect(screen.getByRole('heading', { level: 1, name: 'नियम और शर्तें' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('नियम और शर्तें - Marque Parts'));
    expect(screen.getByRole('article').textContent).toMatch(/6 महीने तक मान्य/);
  });

  it('states what the terms must say', () => {
    open('/termandcondition');
    const terms = screen.getByRole('article').textContent ?? '';
    expect(terms).toMatch(/2 to 15 days depending on the part/);
    expect(terms).toMatch(/valid for 6\s+months/);
    expect(terms).toMatch(/within 24-48 hours/);
  });

  it('states what the privacy policy must say', () => {
    open('/policy');
    const policy = screen.getByRole('article').textContent ?? '';
    expect(policy).toMatch(/Effective date: 2021-01-01/);
    expect(policy).toContain(`This policy explains how ${TEST_SHOP.legalName}, the operator of Marque Parts`);
    expect(policy).toMatch(/at least 18 years old/);
    expect(policy).toMatch(/2-15 days/);
    expect(policy).toMatch(/6 months/);
    // The data-rights addresses and the Grievance Officer the Consumer Protection (E-Commerce) Rules require.
    expect(policy).toContain(TEST_SHOP.supportEmail);
    expect(policy).toContain(TEST_SHOP.grievanceOfficer.email);
    const officer = within(screen.getByRole('region', { name: 'Grievance Officer' }));
    expect(officer.getByText(TEST_SHOP.grievanceOfficer.name)).toBeTruthy();
    expect(officer.getByRole('link', { name: TEST_SHOP.grievanceOfficer.phone }).getAttribute('href')).toBe('tel:+911140001299');
    expect(policy).toContain(TEST_SHOP.gstin);
    expect(policy).toContain(TEST_SHOP.address);
  });

  it('names the seller and the Grievance Officer on the contact page', () => {
    open('/contactus');
    const page = screen.getByRole('article');
    expect(within(page).getByRole('link', { name: TEST_SHOP.supportEmail }).getAttribute('href')).toBe(
      `mailto:${TEST_SHOP.supportEmail}`,
    );
    expect(page.textContent).toContain(TEST_SHOP.legalName);
    expect(page.textContent).toContain(TEST_SHOP.address);
    expect(page.textContent).toContain(TEST_SHOP.gstin);
    const officer = within(screen.getByRole('region', { name: 'Grievance Officer' }));
    expect(officer.getByText(TEST_SHOP.grievanceOfficer.name)).toBeTruthy();
    expect(officer.getByRole('link', { name: TEST_SHOP.grievanceOfficer.email })).toBeTruthy();
    expect(page.textContent).not.toMatch(/XXXXX|\.example/);
  });

  it('says Page not found for an unknown address', async () => {
    open('/no/such/page');
    expect(screen.getByRole('heading', { name: 'Page not found' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Page not found - Marque Parts'));
    expectLayoutWorks();
  });

  it('shows the fallback in the slot when the remote cannot be loaded, and retries on request', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    remote.mockRejectedValue(new Error('RUNTIME-008: failed to load remoteEntry'));
    open('/search?search=disc&page=1');

    expect(await screen.findByText(FALLBACK_TEXT, {}, { timeout: 3000 })).toBeTruthy();
    expect(remote).toHaveBeenCalledTimes(3);
    expectLayoutWorks();

    answerPages({ default: () => <h1>Results are back</h1> });
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Results are back' })).toBeTruthy();
    expect(screen.queryByText(FALLBACK_TEXT)).toBeNull();
  });

  it('shows the fallback the runtime plugin hands over instead of the remote module', async () => {
    setFallbackComponent(RemoteUnavailable);
    remote.mockImplementation(async () => fallbackModule());
    open('/product?productId=p-1');

    expect(await screen.findByText(FALLBACK_TEXT, {}, { timeout: 3000 })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
    expectLayoutWorks();
  });

  it('keeps the page alive when a remote page breaks while rendering', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    answerPages({
      default: () => {
        throw new Error('boom');
      },
    });
    open('/product?productId=p-2');

    expect(await screen.findByText(FALLBACK_TEXT)).toBeTruthy();
    expectLayoutWorks();
  });
});
