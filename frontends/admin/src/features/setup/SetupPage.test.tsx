import { failed } from '@marque/api-client/testing';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { adminServer } from '../../test/server';
import { SetupPage } from './SetupPage';

const EXPIRED = 'This set-up link is unknown, used or expired. Ask an owner for a new one.';
const URI = 'otpauth://totp/Marque:owner%40example.in?secret=JBSWY3DPEHPK3PXP&issuer=Marque';

describe('the set-up page', () => {
  it('sets the password with the link’s code, then shows the QR code and the secret', async () => {
    window.history.replaceState(null, '', '/admin/setup?code=one-time');
    const server = adminServer({ 'POST /api/admin/setup': () => ({ totpUri: URI, secret: 'JBSWY3DPEHPK3PXP' }) });
    render(<SetupPage />);
    const submit = screen.getByRole('button', { name: 'Set password' });
    await userEvent.type(screen.getByLabelText('New password (12 to 128 characters)'), 'short');
    expect(screen.getByText('The password must have 12 to 128 characters.')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('New password (12 to 128 characters)'), ' but now long enough');
    await userEvent.type(screen.getByLabelText('Repeat the password'), 'short but now long enougX');
    expect(screen.getByText('The two passwords are not the same.')).toBeTruthy();
    expect((submit as HTMLButtonElement).disabled).toBe(true);
    await userEvent.clear(screen.getByLabelText('Repeat the password'));
    await userEvent.type(screen.getByLabelText('Repeat the password'), 'short but now long enough');
    await userEvent.click(submit);

    const qr = await screen.findByRole('img', { name: 'QR code for your authenticator app' });
    expect(qr.tagName.toLowerCase()).toBe('svg');
    expect(qr.querySelector('path')?.getAttribute('d')?.length).toBeGreaterThan(100);
    expect(screen.getByText('JBSWY3DPEHPK3PXP')).toBeTruthy();
    expect(server.calls.find((c) => c.path === '/api/admin/setup')?.body).toEqual({
      code: 'one-time',
      password: 'short but now long enough',
    });
    expect(screen.getByRole('link', { name: 'Go to sign-in' }).getAttribute('href')).toBe('/admin/login');
  });

  it('shows a used or expired code’s refusal and keeps the password typed', async () => {
    window.history.replaceState(null, '', '/admin/setup?code=old');
    adminServer({ 'POST /api/admin/setup': () => failed(400, EXPIRED, 'staff.setup_invalid') });
    render(<SetupPage />);
    await userEvent.type(screen.getByLabelText('New password (12 to 128 characters)'), 'twelve chars ok');
    await userEvent.type(screen.getByLabelText('Repeat the password'), 'twelve chars ok');
    await userEvent.click(screen.getByRole('button', { name: 'Set password' }));
    expect((await screen.findByRole('alert')).textContent).toBe(EXPIRED);
    expect((screen.getByLabelText('Repeat the password') as HTMLInputElement).value).toBe('twelve chars ok');
  });

  it('says so when the link has no code', () => {
    window.history.replaceState(null, '', '/admin/setup');
    adminServer();
    render(<SetupPage />);
    expect(screen.getByRole('alert').textContent).toMatch(/incomplete/);
  });
});
