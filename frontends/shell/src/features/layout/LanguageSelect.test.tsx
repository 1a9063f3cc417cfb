import { LANGUAGE_STORAGE_KEY, setLanguage } from '@marque/i18n';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { embedTestShop } from '@marque/ui/testing';
import { resetSession, signIn } from '@marque/session/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Layout } from './Layout';

beforeEach(() => {
  localStorage.clear();
  embedTestShop();
});

afterEach(async () => {
  await setLanguage('en');
  localStorage.clear();
  resetSession();
  vi.unstubAllGlobals();
});

function renderPage() {
  render(
    <Layout>
      <p>page</p>
    </Layout>,
  );
}

async function chooseHindi() {
  renderPage();
  await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'hi');
  expect(await screen.findByRole('combobox', { name: 'भाषा' })).toBeTruthy();
}

/** Records the calls that keep the language with the account; anything else answers 404. */
function recordLanguageCalls() {
  const kept: { body: unknown; authorization: string | null; method: string | undefined }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string, init: RequestInit = {}) => {
      if (path !== '/api/account/language') return new Response('{}', { status: 404 });
      kept.push({ body: JSON.parse(String(init.body)), authorization: new Headers(init.headers).get('authorization'), method: init.method });
      return new Response(JSON.stringify({ language: 'hi' }), { status: 200 });
    }),
  );
  return kept;
}

describe('language selector', () => {
  it('switches every text of the page to Hindi without a reload, and remembers the choice', async () => {
    renderPage();
    const select = screen.getByRole('combobox', { name: 'Language' });
    expect((select as HTMLSelectElement).value).toBe('en');
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual(['English', 'हिन्दी']);

    await userEvent.selectOptions(select, 'hi');

    expect(await screen.findByRole('combobox', { name: 'भाषा' })).toBeTruthy();
    expect(screen.getByPlaceholderText('पार्ट का नाम / नंबर लिखें')).toBeTruthy();
    expect(within(screen.getByRole('navigation', { name: 'मुख्य मेन्यू' })).getByRole('link', { name: 'हमारे बारे में' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'सूचना बंद करें' })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'कार ब्रांड' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('hi');
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('hi');

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'भाषा' }), 'en');
    expect(await screen.findByPlaceholderText('Enter Part Name / Number')).toBeTruthy();
    expect(document.documentElement.lang).toBe('en');
  });

  it("keeps a signed-in customer's choice with the account, for the notices about their orders", async () => {
    signIn({}, [], 'tok-lang');
    const kept = recordLanguageCalls();
    await chooseHindi();
    expect(kept).toEqual([{ body: { language: 'hi' }, authorization: 'Bearer tok-lang', method: 'PUT' }]);
  });

  it('sends nothing for a visitor who is not signed in', async () => {
    const kept = recordLanguageCalls();
    await chooseHindi();
    expect(kept).toEqual([]);
  });
});
