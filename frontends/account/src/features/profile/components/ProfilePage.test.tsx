import { getSession } from '@marque/session';
import { resetSession, signIn, TEST_USER } from '@marque/session/testing';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { accountServer } from '../../../test/server';
import { ProfilePage } from './ProfilePage';

beforeEach(() => resetSession());

describe('/profile', () => {
  it('sends visitors to /login', async () => {
    window.history.replaceState(null, '', '/profile');
    render(<ProfilePage />);
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
  });

  it('shows the name and the email, or the Google email when there is no other', () => {
    signIn({ email: '', googleEmail: 'asha@gmail.com' });
    render(<ProfilePage />);
    expect(screen.getByText('Asha Verma')).toBeTruthy();
    expect(screen.getByText('asha@gmail.com')).toBeTruthy();
  });

  it('shows the store credit and until when it can be spent (a day in India)', () => {
    signIn({ storeCredit: { balance: 1250.5, expiresAt: '2027-05-26T20:00:00Z' } });
    render(<ProfilePage />);
    expect(screen.getByText('Store credit')).toBeTruthy();
    expect(screen.getByText('₹1,250.50, valid until 27 May 2027')).toBeTruthy();
  });

  it('shows a store credit of nothing without a balance', () => {
    signIn();
    render(<ProfilePage />);
    expect(screen.getByText('Store credit').nextElementSibling?.textContent).toBe('₹0');
  });

  it('says an email not yet proven is not verified; Verify sends its code and the code proves it', async () => {
    let proved = false;
    const server = accountServer({
      'POST /api/resendotp': () => ({ status: 'success', message: 'We have sent a new OTP.' }),
      'POST /api/verify': () => {
        proved = true;
        return { status: 'success', message: 'success', token: 'proved' };
      },
      'GET /api/user': () => ({ status: 'success', user: { ...TEST_USER, emailVerified: proved } }),
    });
    signIn({ emailVerified: false });
    render(<ProfilePage />);
    expect(screen.getAllByText('Not verified')).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await userEvent.type(await screen.findByLabelText('OTP'), '123456');
    expect(server.calls.find((c) => c.path === '/api/resendotp')?.body).toEqual({
      email: 'asha@example.in',
      mobile: '9876543210',
    });
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(screen.queryByText('Not verified')).toBeNull());
    expect(server.calls.find((c) => c.path === '/api/verify')?.body).toEqual({
      email: 'asha@example.in',
      mobile: '9876543210',
      otp: '123456',
    });
  });

  it('enables Save only for a changed name or a chosen image; Cancel restores the name', async () => {
    signIn();
    render(<ProfilePage />);
    await userEvent.click(screen.getByRole('button', { name: 'Edit Profile' }));
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    const name = screen.getByLabelText('Name') as HTMLInputElement;
    expect(name.value).toBe('Asha Verma');
    expect(save.disabled).toBe(true);
    expect((screen.getByLabelText('Profile picture') as HTMLInputElement).accept).toBe('image/*');

    await userEvent.type(name, 'n');
    expect(save.disabled).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByText('Asha Verma')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Edit Profile' }));
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Asha Verma');
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.upload(screen.getByLabelText('Profile picture'), new File(['x'], 'me.png', { type: 'image/png' }));
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await userEvent.click(screen.getByRole('button', { name: 'Edit Profile' }));
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('saves: PATCH with the new name, the user refetched, edit mode left', async () => {
    let name = TEST_USER.name;
    const server = accountServer({
      'PATCH /api/update/user/{userId}': ({ body }) => {
        name = String((body as FormData).get('name'));
        return { status: 'success', user: { ...TEST_USER, name } };
      },
      'GET /api/user': () => ({ status: 'success', user: { ...TEST_USER, name } }),
    });
    signIn();
    render(<ProfilePage />);
    await userEvent.click(screen.getByRole('button', { name: 'Edit Profile' }));
    await userEvent.clear(screen.getByLabelText('Name'));
    await userEvent.type(screen.getByLabelText('Name'), 'Asha V.');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Asha V.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Edit Profile' })).toBeTruthy();
    expect(getSession().user?.name).toBe('Asha V.');
    const patch = server.calls.find((c) => c.method === 'PATCH');
    expect(patch?.path).toBe('/api/update/user/u1');
    expect(patch?.headers.get('authorization')).toBe('Bearer test-token');
  });
});

describe('/profile: your data', () => {
  it('downloads a copy of the data as a JSON file', async () => {
    const { address: _, ...profile } = TEST_USER;
    const data = { status: 'success', profile: { ...profile, createdAt: 1_700_000_000 }, addresses: [], wishlist: ['p000001'], garage: [{ vehicleId: 'bmw-x5-g05.b57', year: 2020 }], orders: [], returns: [], storeCredit: [] };
    const server = accountServer({ 'GET /api/user/{userId}/export': () => data });
    const saved: Blob[] = [];
    const create = vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      saved.push(blob as Blob);
      return 'blob:export';
    });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      expect(this.download).toBe('marque-my-data.json');
    });
    signIn();
    render(<ProfilePage />);
    await userEvent.click(screen.getByRole('button', { name: 'Download my data' }));
    await waitFor(() => expect(click).toHaveBeenCalledOnce());
    expect(JSON.parse(await saved[0]!.text())).toEqual(data);
    const call = server.calls.find((c) => c.path === '/api/user/u1/export');
    expect(call?.headers.get('authorization')).toBe('Bearer test-token');
    create.mockRestore();
    click.mockRestore();
  });

  it('deletes the account only after the customer confirms, then signs out', async () => {
    const server = accountServer({
      'DELETE /api/user/{userId}': () => ({ status: 'success', message: 'Your account has been deleted.' }),
      'DELETE /api/logout': () => ({ status: 'success', message: 'success' }),
    });
    signIn();
    render(<ProfilePage />);
    await userEvent.click(screen.getByRole('button', { name: 'Delete my account' }));
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).toContain('Your orders and invoices are kept for 72 months');
    await userEvent.click(screen.getByRole('button', { name: 'No, keep it' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(server.calls.some((c) => c.method === 'DELETE' && c.path === '/api/user/u1')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Delete my account' }));
    await userEvent.click(screen.getByRole('button', { name: 'Yes, delete my account' }));
    await waitFor(() => expect(getSession().status).toBe('anonymous'));
    expect(server.calls.some((c) => c.method === 'DELETE' && c.path === '/api/user/u1')).toBe(true);
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('says so when the deletion fails, and stays signed in', async () => {
    accountServer({
      'DELETE /api/user/{userId}': () =>
        new Response(JSON.stringify({ status: 'failed', message: 'Accounts are unavailable right now.' }), {
          status: 503,
          headers: { 'content-type': 'application/json' },
        }),
    });
    signIn();
    render(<ProfilePage />);
    await userEvent.click(screen.getByRole('button', { name: 'Delete my account' }));
    await userEvent.click(screen.getByRole('button', { name: 'Yes, delete my account' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Accounts are unavailable right now.');
    expect(getSession().status).toBe('authenticated');
  });
});

