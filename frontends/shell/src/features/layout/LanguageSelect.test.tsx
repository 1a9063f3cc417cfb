import { LANGUAGE_STORAGE_KEY, setLanguage } from '@marque/i18n';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { embedTestShop } from '@marque/ui/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Layout } from './Layout';

beforeEach(() => {
  localStorage.clear();
  embedTestShop();
});

afterEach(async () => {
  await setLanguage('en');
  localStorage.clear();
});

describe('language selector', () => {
  it('switches every text of the page to Hindi without a reload, and remembers the choice', async () => {
    render(
      <Layout>
        <p>page</p>
      </Layout>,
    );
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
});
