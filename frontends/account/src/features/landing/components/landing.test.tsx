import { setLanguage } from '@marque/i18n';
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LoginFailurePage } from './LoginFailurePage';
import { LoginSuccessPage } from './LoginSuccessPage';

beforeEach(() => {
  vi.useFakeTimers();
  localStorage.clear();
});
afterEach(() => vi.useRealTimers());

/** A server that exchanges `code` for `session` (and refuses every other code), recording what it was asked. */
function exchanging(code: string, session: string) {
  const asked: { path: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (path: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body)) as { token: string };
      asked.push({ path, body });
      const json = (status: number, answer: unknown) =>
        new Response(JSON.stringify(answer), { status, headers: { 'content-type': 'application/json' } });
      return body.token === code
        ? json(200, { token: session })
        : json(401, { status: 'failed', message: 'Please login to continue.', code: 'account.login_required' });
    }),
  );
  return asked;
}

describe('/login/success', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('exchanges the code for the session, stores the session, takes the code out of the address at once and closes after 1 s', async () => {
    const close = vi.spyOn(window, 'close').mockImplementation(() => {});
    const asked = exchanging('abc123', 'session-token-1');
    window.history.replaceState(null, '', '/login/success?token=abc123');
    render(<LoginSuccessPage />);
    expect(window.location.href).toBe('http://localhost:3000/login/success');
    await act(async () => {});
    expect(asked).toEqual([{ path: '/api/google/exchange', body: { token: 'abc123' } }]);
    expect(screen.getByRole('heading', { name: 'You are Authenticated' })).toBeTruthy();
    expect(localStorage.getItem('token')).toBe('session-token-1');
    act(() => vi.advanceTimersByTime(999));
    expect(close).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(close).toHaveBeenCalledOnce();
  });

  it('keeps the exchange when taking the code out of the address mounts the page afresh', async () => {
    const close = vi.spyOn(window, 'close').mockImplementation(() => {});
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const asked = exchanging('abc123', 'session-token-2');
    window.history.replaceState(null, '', '/login/success?token=abc123');
    render(<LoginSuccessPage />).unmount();
    render(<LoginSuccessPage />);
    await act(async () => {});
    expect(asked).toHaveLength(1);
    expect(screen.getByRole('heading', { name: 'You are Authenticated' })).toBeTruthy();
    expect(localStorage.getItem('token')).toBe('session-token-2');
    expect(log).not.toHaveBeenCalledWith('No token');
    act(() => vi.advanceTimersByTime(1000));
    expect(close).toHaveBeenCalledOnce();
  });

  it('a refused code (used, late, another browser) stores nothing and says sign-in did not complete', async () => {
    const close = vi.spyOn(window, 'close').mockImplementation(() => {});
    exchanging('other', 'session-token-3');
    window.history.replaceState(null, '', '/login/success?token=abc123');
    render(<LoginSuccessPage />);
    await act(async () => {});
    expect(screen.getByRole('alert').textContent).toBe('Sign-in with Google did not complete. Please try again.');
    expect(screen.queryByRole('heading', { name: 'You are Authenticated' })).toBeNull();
    expect(localStorage.getItem('token')).toBeNull();
    act(() => vi.advanceTimersByTime(1000));
    expect(close).toHaveBeenCalledOnce();
  });

  it("without a token only logs 'No token'", () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const close = vi.spyOn(window, 'close').mockImplementation(() => {});
    window.history.replaceState(null, '', '/login/success');
    const { container } = render(<LoginSuccessPage />);
    expect(log).toHaveBeenCalledWith('No token');
    expect(container.textContent).toBe('');
    expect(localStorage.getItem('token')).toBeNull();
    act(() => vi.advanceTimersByTime(2000));
    expect(close).not.toHaveBeenCalled();
  });
});

describe('/login/failure', () => {
  it('says sign-in did not complete, in English and Hindi, and closes after 1 s', async () => {
    const close = vi.spyOn(window, 'close').mockImplementation(() => {});
    render(<LoginFailurePage />);
    expect(screen.getByRole('alert').textContent).toBe('Sign-in with Google did not complete. Please try again.');
    act(() => vi.advanceTimersByTime(1000));
    expect(close).toHaveBeenCalledOnce();
    await act(() => setLanguage('hi'));
    expect(screen.getByRole('alert').textContent).toBe('Google से साइन-इन पूरा नहीं हुआ। कृपया फिर से कोशिश करें।');
    await act(() => setLanguage('en'));
  });
});
