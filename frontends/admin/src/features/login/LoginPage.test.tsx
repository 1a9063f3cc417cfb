import { failed } from '@marque/api-client/testing';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { getStaffSession } from '../../lib/session/staff-session';
import { adminServer } from '../../test/server';
import { LoginPage } from './LoginPage';

const fill = async (email: string, password: string, totp: string) => {
  await userEvent.type(screen.getByLabelText('Email'), email);
  await userEvent.type(screen.getByLabelText('Password'), password);
  await userEvent.type(screen.getByLabelText('Authenticator code'), totp);
};

describe('staff sign-in', () => {
  it('signs in with email, password and the current code, keeps the token under staffToken and opens the dashboard', async () => {
    window.history.replaceState(null, '', '/admin/login');
    const server = adminServer({ 'POST /api/admin/login': () => ({ token: 'staff-session' }) });
    render(<LoginPage />);
    const submit = screen.getByRole('button', { name: 'Sign in' });
    await fill('owner@example.in', 'a long owner password', '12 34 56x');
    expect((screen.getByLabelText('Authenticator code') as HTMLInputElement).value).toBe('123456');
    await userEvent.click(submit);
    await waitFor(() => expect(window.location.pathname).toBe('/admin'));
    expect(localStorage.getItem('staffToken')).toBe('staff-session');
    expect(localStorage.getItem('token')).toBeNull();
    expect(getStaffSession().status).toBe('signed-in');
    expect(server.calls.find((c) => c.path === '/api/admin/login')?.body).toEqual({
      email: 'owner@example.in',
      password: 'a long owner password',
      totp: '123456',
    });
  });

  it('keeps what was typed and says above the form, without telling which part, that the sign-in was refused', async () => {
    const wrong = 'The email, password or authenticator code is wrong.';
    adminServer({ 'POST /api/admin/login': () => failed(401, wrong, 'staff.login_failed') });
    render(<LoginPage />);
    await fill('owner@example.in', 'a long owner password', '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toBe(wrong);
    expect(screen.getByLabelText('Authenticator code').getAttribute('aria-invalid')).toBeNull();
    expect((screen.getByLabelText('Authenticator code') as HTMLInputElement).value).toBe('000000');
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('owner@example.in');
    expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('a long owner password');
    expect(localStorage.getItem('staffToken')).toBeNull();
  });

  it('shows a refusal that names no field above the form, in the shop rule’s words when it knows the code', async () => {
    adminServer({ 'POST /api/admin/login': () => failed(503, 'unavailable', 'staff.unavailable') });
    render(<LoginPage />);
    await fill('owner@example.in', 'pw', '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The back office cannot be reached right now. Please try again.');
  });
});
