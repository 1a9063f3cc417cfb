import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { embedTestShop } from '@marque/ui/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { Header } from './Header';

beforeEach(() => embedTestShop());

describe('header on phones', () => {
  it('opens the main links from a menu button and closes the menu once a link is chosen', async () => {
    render(<Header />);
    const button = screen.getByRole('button', { name: 'Menu' });
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(button.getAttribute('aria-controls')).toBe(nav.id);

    await userEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(nav.className).toContain('site-header__nav--open');

    await userEvent.click(screen.getByRole('link', { name: 'About us' }));
    expect(window.location.pathname).toBe('/about');
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });

  it('closes the menu with Escape and gives focus back to its button', async () => {
    render(<Header />);
    const button = screen.getByRole('button', { name: 'Menu' });
    await userEvent.click(button);
    await userEvent.tab();
    expect(document.activeElement?.textContent).toBe('Home');
    await userEvent.keyboard('{Escape}');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);
  });

  it('leaves a place for the cart and the account menu', () => {
    const { container } = render(<Header />);
    expect(container.querySelector('.site-header__actions')).not.toBeNull();
  });
});
