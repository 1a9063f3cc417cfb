import { getSession } from '@marque/session';
import { resetSession, signIn } from '@marque/session/testing';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { accountServer } from '../../../test/server';
import { HeaderMenu } from './HeaderMenu';

beforeEach(() => resetSession());

describe('the header account menu', () => {
  it('offers a Login button to visitors', () => {
    render(<HeaderMenu />);
    expect(screen.getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/login');
  });

  it("shows a customer's default picture opening My Profile, Purchase History, Wishlist and Logout", async () => {
    signIn();
    render(<HeaderMenu />);
    expect(screen.queryByRole('link', { name: 'Login' })).toBeNull();
    const button = screen.getByRole('button', { name: 'Account menu of Asha Verma' });
    expect(button.querySelector('svg')).toBeTruthy();
    expect(button.getAttribute('aria-expanded')).toBe('false');
    await userEvent.click(button);
    expect(screen.getByRole('link', { name: 'My Profile' }).getAttribute('href')).toBe('/profile');
    expect(screen.getByRole('link', { name: 'Purchase History' }).getAttribute('href')).toBe('/orderhistory');
    expect(screen.getByRole('link', { name: 'Wishlist' }).getAttribute('href')).toBe('/wishlist');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('link', { name: 'My Profile' })).toBeNull();
  });

  it("shows the customer's own picture when there is one", () => {
    signIn({ profile: '/media/profiles/u1.jpg' });
    render(<HeaderMenu />);
    expect(screen.getByRole('button', { name: 'Account menu of Asha Verma' }).querySelector('img')?.getAttribute('src')).toBe(
      '/media/profiles/u1.jpg',
    );
  });

  it('logs out: storage cleared, DELETE /api/logout called, back home with the Login button', async () => {
    const server = accountServer({ 'DELETE /api/logout': () => ({ status: 'success', message: 'success' }) });
    signIn();
    localStorage.setItem('products', '[{"_id":"p1"}]');
    window.history.replaceState(null, '', '/profile');
    render(<HeaderMenu />);
    await userEvent.click(screen.getByRole('button', { name: 'Account menu of Asha Verma' }));
    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByRole('link', { name: 'Login' })).toBeTruthy();
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('products')).toBeNull();
    expect(window.location.pathname).toBe('/');
    expect(getSession().status).toBe('anonymous');
    await waitFor(() => expect(server.calls.some((c) => c.method === 'DELETE' && c.path === '/api/logout')).toBe(true));
  });
});
