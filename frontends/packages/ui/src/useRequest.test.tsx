import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useRequest } from './useRequest';

function Show({ id, load, initial }: { id: string; load: (signal: AbortSignal) => Promise<string>; initial?: () => string | undefined }) {
  const state = useRequest(`item:${id}`, load, initial);
  return <p>{state.status === 'success' ? state.data : state.status}</p>;
}

describe('useRequest', () => {
  it('draws data already in the page at the first render and does not load it again', async () => {
    const load = vi.fn(async () => 'loaded');
    const { rerender } = render(<Show id="a" load={load} initial={() => 'embedded'} />);
    // Synchronously, in the first render: no loading state in between.
    expect(screen.getByText('embedded')).toBeTruthy();
    await act(async () => {});
    expect(load).not.toHaveBeenCalled();
    // Another key loads as before.
    rerender(<Show id="b" load={load} initial={() => 'embedded'} />);
    expect(screen.getByText('loading')).toBeTruthy();
    expect(await screen.findByText('loaded')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('loads when the page has nothing for the call', async () => {
    const load = vi.fn(async () => 'loaded');
    render(<Show id="a" load={load} initial={() => undefined} />);
    expect(screen.getByText('loading')).toBeTruthy();
    expect(await screen.findByText('loaded')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);
  });
});
