import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BANNER_INTERVAL_MS, BANNER_SLIDE_COUNT, HomeBanner } from './HomeBanner';

const shownSlide = () => screen.getByRole('group').getAttribute('aria-label');
const wait = (ms: number) => act(() => vi.advanceTimersByTime(ms));
const user = () => userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });

function preferReducedMotion(reduce: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: reduce && query === '(prefers-reduced-motion: reduce)',
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
}

beforeEach(() => {
  vi.useFakeTimers();
  // Testing Library waits for React with a zero timeout; it advances fake timers only when it sees `jest`.
  vi.stubGlobal('jest', { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('HomeBanner', () => {
  it('is a carousel of four labelled slides, showing one at a time', () => {
    render(<HomeBanner />);
    const carousel = screen.getByRole('region', { name: 'Highlights' });
    expect(carousel.getAttribute('aria-roledescription')).toBe('carousel');
    expect(BANNER_SLIDE_COUNT).toBe(4);
    expect(screen.getAllByRole('group')).toHaveLength(1);
    expect(shownSlide()).toBe('1 of 4');
    expect(screen.getByRole('group').getAttribute('aria-roledescription')).toBe('slide');
    expect(screen.getByText('Parts for the luxury car you drive')).toBeTruthy();
  });

  it('moves on every 5 seconds and wraps from the fourth slide to the first', () => {
    render(<HomeBanner />);
    expect(BANNER_INTERVAL_MS).toBe(5000);
    wait(4999);
    expect(shownSlide()).toBe('1 of 4');
    wait(1);
    expect(shownSlide()).toBe('2 of 4');
    wait(5000);
    wait(5000);
    expect(shownSlide()).toBe('4 of 4');
    wait(5000);
    expect(shownSlide()).toBe('1 of 4');
  });

  it('holds still while the pointer is over it, and goes on when it leaves', async () => {
    const u = user();
    render(<HomeBanner />);
    await u.hover(screen.getByRole('region', { name: 'Highlights' }));
    wait(15000);
    expect(shownSlide()).toBe('1 of 4');
    await u.unhover(screen.getByRole('region', { name: 'Highlights' }));
    wait(5000);
    expect(shownSlide()).toBe('2 of 4');
  });

  it('holds still while keyboard focus is inside it, and goes on when focus leaves', async () => {
    const u = user();
    render(
      <>
        <HomeBanner />
        <button type="button">after</button>
      </>,
    );
    await u.tab(); // the pause control
    await u.tab(); // previous slide
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Previous slide' }));
    wait(15000);
    expect(shownSlide()).toBe('1 of 4');

    act(() => screen.getByRole('button', { name: 'after' }).focus());
    wait(5000);
    expect(shownSlide()).toBe('2 of 4');
  });

  it('has a pause control whose name says what it will do', async () => {
    const u = user();
    render(<HomeBanner />);
    await u.click(screen.getByRole('button', { name: 'Pause the slide show' }));
    await u.unhover(screen.getByRole('region', { name: 'Highlights' }));
    wait(20000);
    expect(shownSlide()).toBe('1 of 4');

    const play = screen.getByRole('button', { name: 'Play the slide show' });
    await u.click(play);
    await u.unhover(screen.getByRole('region', { name: 'Highlights' }));
    expect(screen.getByRole('button', { name: 'Pause the slide show' })).toBe(play);
    // Focus stays on the control: that does not hold the slides, the visitor asked for them to play.
    expect(document.activeElement).toBe(play);
    wait(5000);
    expect(shownSlide()).toBe('2 of 4');
  });

  it('goes to the previous, next or a chosen slide by hand', async () => {
    const u = user();
    render(<HomeBanner />);
    await u.click(screen.getByRole('button', { name: 'Previous slide' }));
    expect(shownSlide()).toBe('4 of 4');
    await u.click(screen.getByRole('button', { name: 'Next slide' }));
    expect(shownSlide()).toBe('1 of 4');
    await u.click(screen.getByRole('button', { name: 'Show slide 3' }));
    expect(shownSlide()).toBe('3 of 4');
    expect(screen.getByRole('button', { name: 'Show slide 3' }).getAttribute('aria-current')).toBe('true');
  });

  it('does not play by itself when the visitor prefers reduced motion', () => {
    preferReducedMotion(true);
    render(<HomeBanner />);
    expect(screen.getByRole('button', { name: 'Play the slide show' })).toBeTruthy();
    wait(20000);
    expect(shownSlide()).toBe('1 of 4');
  });

  it('plays when the visitor has no motion preference', () => {
    preferReducedMotion(false);
    render(<HomeBanner />);
    expect(screen.getByRole('button', { name: 'Pause the slide show' })).toBeTruthy();
    wait(5000);
    expect(shownSlide()).toBe('2 of 4');
  });
});
