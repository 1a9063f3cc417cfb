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

describe('/login/success', () => {
  it('stores the token, takes it out of the address at once and closes the window after 1 s', () => {
    const close = vi.spyOn(window, 'close').mockImplementation(() => {});
    window.history.replaceState(null, '', '/login/success?token=abc123');
    render(<LoginSuccessPage />);
    expect(screen.getByRole('heading', { name: 'You are Authenticated' })).toBeTruthy();
    expect(localStorage.getItem('token')).toBe('abc123');
    expect(window.location.href).toBe('http://localhost:3000/login/success');
    act(() => vi.advanceTimersByTime(999));
    expect(close).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(close).toHaveBeenCalledOnce();
  });

  it('keeps the token when taking it out of the address mounts the page afresh', () => {
    const close = vi.spyOn(window, 'close').mockImplementation(() => {});
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    window.history.replaceState(null, '', '/login/success?token=abc123');
    render(<LoginSuccessPage />).unmount();
    render(<LoginSuccessPage />);
    expect(screen.getByRole('heading', { name: 'You are Authenticated' })).toBeTruthy();
    expect(localStorage.getItem('token')).toBe('abc123');
    expect(log).not.toHaveBeenCalledWith('No token');
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
