import { failed } from '@marque/api-client/testing';
import { getSession } from '@marque/session';
import { resetSession } from '@marque/session/testing';
import { embedTestShop } from '@marque/ui/testing';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { accountServer } from '../../../test/server';
import { LoginPage } from './LoginPage';

beforeEach(() => {
  resetSession();
  window.history.replaceState(null, '', '/login');
});

describe('log in with mobile and OTP (the default)', () => {
  it('sends the code, verifies it, signs in and goes on to /address', async () => {
    const server = accountServer({
      'POST /api/mobile/login': () => ({ status: 'success', message: 'OTP sent', mobile: '9876543210' }),
      'POST /api/verify': ({ body }) =>
        (body as { otp: string }).otp === '123456'
          ? { status: 'success', message: 'success', token: 'fresh' }
          : failed(400, 'Wrong OTP', 'otp.wrong'),
    });
    render(<LoginPage />);
    expect(screen.getByRole('list', { name: 'Checkout steps' }).textContent).toBe('CartAuthorizeAddressReviewPay');
    const send = screen.getByRole('button', { name: 'Send OTP' });
    expect((send as HTMLButtonElement).disabled).toBe(true);

    await userEvent.type(screen.getByLabelText('Mobile number'), '98765-43210');
    expect((screen.getByLabelText('Mobile number') as HTMLInputElement).value).toBe('9876543210');
    await userEvent.click(send);

    expect(await screen.findByRole('heading', { name: 'Verify OTP' })).toBeTruthy();
    expect(screen.getByText('Enter the OTP sent to 9876543210.')).toBeTruthy();
    expect((screen.getByRole('button', { name: /Resend OTP in 30 s/ }) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.type(screen.getByLabelText('OTP'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));

    await waitFor(() => expect(window.location.pathname).toBe('/address'));
    expect(getSession().status).toBe('authenticated');
    expect(localStorage.getItem('token')).toBe('fresh');
    expect(server.calls.find((c) => c.path === '/api/verify')?.body).toEqual({ mobile: '9876543210', otp: '123456' });
  });

  it('says Enter 10 digit mobile number while the number is short', async () => {
    accountServer();
    render(<LoginPage />);
    await userEvent.type(screen.getByLabelText('Mobile number'), '98765');
    expect(screen.getByText('Enter 10 digit mobile number')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Mobile number'), '43210');
    expect(screen.queryByText('Enter 10 digit mobile number')).toBeNull();
  });

  it("shows the server's message in red above the form when the number is unknown", async () => {
    accountServer({ 'POST /api/mobile/login': () => failed(404, 'User not found') });
    render(<LoginPage />);
    await userEvent.type(screen.getByLabelText('Mobile number'), '9876543210');
    await userEvent.click(screen.getByRole('button', { name: 'Send OTP' }));
    expect((await screen.findByRole('alert')).textContent).toBe('User not found');
  });

  it('says Wrong OTP when the code is refused', async () => {
    accountServer({
      'POST /api/mobile/login': () => ({ status: 'success', message: 'OTP sent', mobile: '9876543210' }),
      'POST /api/verify': () => failed(400, 'Wrong OTP', 'otp.wrong'),
    });
    render(<LoginPage />);
    await userEvent.type(screen.getByLabelText('Mobile number'), '9876543210');
    await userEvent.click(screen.getByRole('button', { name: 'Send OTP' }));
    await userEvent.type(await screen.findByLabelText('OTP'), '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Wrong OTP');
    expect(getSession().status).toBe('anonymous');
    expect(window.location.pathname).toBe('/login');
  });
});

describe('log in with email and password', () => {
  it("moves a customer answered 'not verified' to the OTP view with that email and mobile", async () => {
    const server = accountServer({
      'POST /api/login': () => ({ status: 'not verified', message: 'Verify first', email: 'asha@example.in', mobile: '9876543210' }),
      'POST /api/verify': () => ({ status: 'success', message: 'success', token: 'verified' }),
    });
    render(<LoginPage />);
    await userEvent.click(screen.getByRole('button', { name: 'Log in with email and password' }));
    await userEvent.type(screen.getByLabelText('Email'), 'asha@example.in');
    await userEvent.type(screen.getByLabelText('Password'), 'secret1!x');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));

    expect(await screen.findByText('Enter the OTP sent to 9876543210, asha@example.in.')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('OTP'), '654321');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(getSession().status).toBe('authenticated'));
    expect(server.calls.find((c) => c.path === '/api/verify')?.body).toEqual({ email: 'asha@example.in', mobile: '9876543210', otp: '654321' });
  });

  it("shows a refused login's message in red above the form", async () => {
    accountServer({ 'POST /api/login': () => failed(401, 'Invalid email or password') });
    render(<LoginPage />);
    await userEvent.click(screen.getByRole('button', { name: 'Log in with email and password' }));
    await userEvent.type(screen.getByLabelText('Email'), 'asha@example.in');
    await userEvent.type(screen.getByLabelText('Password'), 'nope');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid email or password');
  });

  it('signs in at once with a token and goes to /address', async () => {
    accountServer({
      'POST /api/login': () => ({ status: 'success', message: 'ok', token: 'tok', email: 'asha@example.in', mobile: '9876543210' }),
    });
    render(<LoginPage />);
    await userEvent.click(screen.getByRole('button', { name: 'Log in with email and password' }));
    await userEvent.type(screen.getByLabelText('Email'), 'asha@example.in');
    await userEvent.type(screen.getByLabelText('Password'), 'secret1!x');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(window.location.pathname).toBe('/address'));
  });
});

describe('sign up', () => {
  it('keeps the button disabled until the form is valid, with live messages', async () => {
    const server = accountServer({
      'POST /api/register': () => ({ status: 'success', message: 'OTP sent', email: 'ravi@example.in', mobile: '9123456780' }),
    });
    render(<LoginPage />);
    await userEvent.click(screen.getByRole('button', { name: 'New here? Create an account' }));
    const submit = screen.getByRole('button', { name: 'Sign up' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    expect((screen.getByLabelText('Profile picture') as HTMLInputElement).accept).toBe('image/*');

    await userEvent.type(screen.getByLabelText('Name'), 'Ravi');
    await userEvent.type(screen.getByLabelText('Email'), 'ravi@example.in');
    await userEvent.type(screen.getByLabelText('Password'), 'short');
    expect(
      screen.getByText('Password must include atleast a number, a special character and 8-16 characters.'),
    ).toBeTruthy();
    await userEvent.clear(screen.getByLabelText('Password'));
    await userEvent.type(screen.getByLabelText('Password'), 'garage12!');
    expect(screen.queryByText(/Password must include/)).toBeNull();
    await userEvent.type(screen.getByLabelText('Confirm password'), 'garage12?');
    expect(screen.getByText('Passwords not match.')).toBeTruthy();
    await userEvent.clear(screen.getByLabelText('Confirm password'));
    await userEvent.type(screen.getByLabelText('Confirm password'), 'garage12!');
    expect(screen.queryByText('Passwords not match.')).toBeNull();
    await userEvent.type(screen.getByLabelText('Mobile number'), '91234');
    expect(screen.getByText('Enter 10 digit mobile number')).toBeTruthy();
    expect(submit.disabled).toBe(true);
    await userEvent.type(screen.getByLabelText('Mobile number'), '56780');
    expect(submit.disabled).toBe(false);

    await userEvent.click(submit);
    expect(await screen.findByText('Enter the OTP sent to 9123456780, ravi@example.in.')).toBeTruthy();
    const body = server.calls.find((c) => c.path === '/api/register')?.body as FormData;
    expect(body.get('name')).toBe('Ravi');
    expect(body.get('mobile')).toBe('9123456780');
    expect(body.get('password')).toBe('garage12!');
  });
});

describe('sign-in with Google', () => {
  it('opens a 500×600 popup and refetches the user once it closes', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      embedTestShop();
      accountServer();
      const popup = { closed: false } as Window;
      const open = vi.spyOn(window, 'open').mockReturnValue(popup);
      render(<LoginPage />);
      await userEvent.click(screen.getByRole('button', { name: 'Continue with Google' }));
      expect(open).toHaveBeenCalledWith('/api/google', expect.any(String), 'width=500,height=600');

      localStorage.setItem('token', 'from-popup');
      await vi.advanceTimersByTimeAsync(500);
      expect(getSession().status).toBe('anonymous');
      (popup as { closed: boolean }).closed = true;
      await vi.advanceTimersByTimeAsync(500);
      await waitFor(() => expect(getSession().status).toBe('authenticated'));
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('without a sign-in provider', () => {
  it('offers no Google button (the server says none is configured)', () => {
    embedTestShop({ signIn: null });
    accountServer();
    render(<LoginPage />);
    expect(screen.getByRole('button', { name: 'Send OTP' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Continue with Google' })).toBeNull();
    expect(screen.queryByText('or')).toBeNull();
  });
});
