import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { embedTestShop } from '@marque/ui/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { Header } from './Header';

beforeEach(() => embedTestShop());

describe('header search box', () => {
  it('opens the first page of results for the typed term, URL-encoded', async () => {
    render(<Header />);
    const box = screen.getByPlaceholderText('Enter Part Name / Number');
    await userEvent.type(box, 'A 000-180 26/09 & co{Enter}');
    expect(window.location.pathname).toBe('/search');
    expect(window.location.search).toBe('?search=A%20000-180%2026%2F09%20%26%20co&page=1');
  });

  it('submits with the Search button too, trimming spaces around the term', async () => {
    render(<Header />);
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search parts' }), '  brake pad  ');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(window.location.pathname + window.location.search).toBe('/search?search=brake%20pad&page=1');
  });

  it('shows the term being looked at on a results page', () => {
    window.history.replaceState(null, '', '/search?search=oil%20filter&page=2');
    render(<Header />);
    expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('oil filter');
  });

  it('links to home, about and contact', () => {
    render(<Header />);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const links = [...nav.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links).toEqual([
      ['Home', '/'],
      ['About us', '/about'],
      ['Contact us', '/contactus'],
    ]);
    expect(screen.getByRole('link', { name: 'Marque Parts home' }).getAttribute('href')).toBe('/');
  });
});
