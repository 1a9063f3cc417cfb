import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Pagination, pageWindow } from './Pagination';

const hrefFor = (n: number) => `/search?search=disc&page=${n}`;

describe('Pagination', () => {
  it('hides Previous on the first page', () => {
    render(<Pagination page={1} pages={4} hrefFor={hrefFor} />);
    expect(screen.queryByRole('link', { name: 'Previous' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Next' }).getAttribute('href')).toBe('/search?search=disc&page=2');
  });

  it('hides Next on the last page', () => {
    render(<Pagination page={4} pages={4} hrefFor={hrefFor} />);
    expect(screen.queryByRole('link', { name: 'Next' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Previous' }).getAttribute('href')).toBe('/search?search=disc&page=3');
  });

  it('shows both in the middle and marks the current page', () => {
    render(<Pagination page={2} pages={4} hrefFor={hrefFor} />);
    const nav = screen.getByRole('navigation', { name: 'Pagination' });
    expect(within(nav).getByRole('link', { name: 'Previous' })).toBeTruthy();
    expect(within(nav).getByRole('link', { name: 'Next' })).toBeTruthy();
    expect(within(nav).getByRole('link', { name: 'Page 2' }).getAttribute('aria-current')).toBe('page');
  });

  it('shows nothing when everything fits on one page', () => {
    const { container } = render(<Pagination page={1} pages={1} hrefFor={hrefFor} />);
    expect(container.innerHTML).toBe('');
  });

  it('goes to the chosen page and back to the top', async () => {
    render(<Pagination page={1} pages={4} hrefFor={hrefFor} />);
    await userEvent.click(screen.getByRole('link', { name: 'Page 3' }));
    expect(window.location.pathname + window.location.search).toBe('/search?search=disc&page=3');
    expect(window.scrollTo).toHaveBeenCalledWith({ top: 0 });
  });

  it('leaves gaps between far-apart page numbers', () => {
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(10, 20)).toEqual([1, null, 8, 9, 10, 11, 12, null, 20]);
    expect(pageWindow(1, 10)).toEqual([1, 2, 3, null, 10]);
  });
});
