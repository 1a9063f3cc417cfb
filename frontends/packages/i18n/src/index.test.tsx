// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  currentLanguage,
  LANGUAGE_STORAGE_KEY,
  loadNamespace,
  namespaceLoaded,
  restoreLanguage,
  setLanguage,
  translate,
  useT,
} from './index';

function NotFound() {
  const t = useT('messages');
  return <p>{t('catalog.not_found')}</p>;
}

afterEach(async () => {
  cleanup();
  await setLanguage('en');
  localStorage.clear();
});

describe('the language', () => {
  it('starts in English and switches every text to Hindi without a reload', async () => {
    render(<NotFound />);
    expect(screen.getByText('Product Not Found')).toBeTruthy();

    await act(() => setLanguage('hi'));
    expect(screen.getByText('कोई प्रोडक्ट नहीं मिला')).toBeTruthy();
    expect(document.documentElement.lang).toBe('hi');
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('hi');
    expect(translate('messages', 'stock.out_card')).toBe('स्टॉक में नहीं');
  });

  it('restores the remembered choice', async () => {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'hi');
    await restoreLanguage();
    expect(currentLanguage()).toBe('hi');
    expect(document.documentElement.lang).toBe('hi');
  });

  it('ignores a stored value that is no language of the shop', async () => {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'klingon');
    await restoreLanguage();
    expect(currentLanguage()).toBe('en');
    expect(document.documentElement.lang).toBe('en');
  });
});

describe('a text', () => {
  it('fills its placeholders and leaves unknown ones as they are', () => {
    expect(translate('listing', 'remove_value', { value: 'Diesel' })).toBe('Remove Diesel');
    expect(translate('listing', 'remove_value')).toBe('Remove {{value}}');
  });

  it('falls back to English where the chosen language has no text, and to the code as a last resort', async () => {
    await setLanguage('hi');
    expect(translate('listing', 'remove_value', { value: 'Diesel' })).not.toBe('Remove Diesel');
    expect(translate('listing', 'no.such.code' as 'reset')).toBe('no.such.code');
  });
});

describe('a lazy namespace', () => {
  it('shows its codes until loaded, then its texts, and follows a later switch to Hindi', async () => {
    await setLanguage('en');
    expect(translate('admin', 'nav.products')).toBe('nav.products');
    await loadNamespace('admin');
    expect(namespaceLoaded('admin')).toBe(true);
    expect(translate('admin', 'nav.products')).toBe('Products');
    await setLanguage('hi');
    expect(namespaceLoaded('admin')).toBe(true);
    expect(translate('admin', 'nav.products')).toBe('उत्पाद');
    await setLanguage('en');
  });
});
