import { render, screen } from '@testing-library/react';
import { embedTestShop } from '@marque/ui/testing';
import { describe, expect, it } from 'vitest';
import { ChatLink } from './ChatLink';

describe('floating chat link', () => {
  it('opens a WhatsApp chat with the configured number and a short message, in a new tab', () => {
    embedTestShop({ chatNumber: '919810012345' });
    render(<ChatLink />);
    const link = screen.getByRole('link', { name: 'Chat with us on WhatsApp (opens in a new tab)' });
    const href = new URL(link.getAttribute('href') ?? '');
    expect(href.origin + href.pathname).toBe('https://wa.me/919810012345');
    expect(href.searchParams.get('text')).toBe('Hello Marque Parts, I am looking for a spare part.');
    expect(link.getAttribute('href')).toContain('?text=Hello%20Marque%20Parts%2C%20I%20am');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
  });

  it('is absent when the shop has no chat number', () => {
    embedTestShop({ chatNumber: null });
    const { container } = render(<ChatLink />);
    expect(screen.queryByRole('link')).toBeNull();
    expect(container.innerHTML).toBe('');
  });
});
