import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { embedTestShop, TEST_SHOP } from '@marque/ui/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { ANNOUNCEMENT_CLOSED_KEY, AnnouncementBanner } from './AnnouncementBanner';

beforeEach(() => {
  localStorage.clear();
  embedTestShop();
});

describe('announcement banner', () => {
  it('says many parts are not online yet and gives the enquiry number to call', () => {
    render(<AnnouncementBanner />);
    const banner = screen.getByRole('region', { name: 'Announcement' });
    expect(banner.textContent).toMatch(/Many of our parts are not uploaded yet\. For any part, call \+91 98100 12345\./);
    expect(screen.getByRole('link', { name: TEST_SHOP.enquiryPhone }).getAttribute('href')).toBe('tel:+919810012345');
  });

  it('closes for good: remembered in localStorage, still closed after a reload', async () => {
    const { unmount } = render(<AnnouncementBanner />);
    await userEvent.click(screen.getByRole('button', { name: 'Close announcement' }));
    expect(screen.queryByRole('region', { name: 'Announcement' })).toBeNull();
    expect(localStorage.getItem(ANNOUNCEMENT_CLOSED_KEY)).toBe('true');

    unmount();
    render(<AnnouncementBanner />);
    expect(screen.queryByRole('region', { name: 'Announcement' })).toBeNull();
  });

  it('shows again only while it has not been closed', () => {
    localStorage.setItem(ANNOUNCEMENT_CLOSED_KEY, 'false');
    render(<AnnouncementBanner />);
    expect(screen.getByRole('region', { name: 'Announcement' })).toBeTruthy();
  });
});
