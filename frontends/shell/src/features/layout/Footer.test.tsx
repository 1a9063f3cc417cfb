import { render, screen, within } from '@testing-library/react';
import { embedTestShop } from '@marque/ui/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { Footer } from './Footer';

const hrefOf = (container: HTMLElement, name: string) => within(container).getByRole('link', { name }).getAttribute('href');

beforeEach(() => embedTestShop());

describe('footer', () => {
  it('links the eight car brands to their first page', () => {
    render(<Footer />);
    const brands = screen.getByRole('navigation', { name: 'Car brands' });
    expect([...brands.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual([
      '/brand/audi?page=1',
      '/brand/bmw?page=1',
      '/brand/mercedes-benz?page=1',
      '/brand/jaguar?page=1',
      '/brand/range-rover?page=1',
      '/brand/land-rover?page=1',
      '/brand/volvo?page=1',
      '/brand/porsche?page=1',
    ]);
  });

  it('links the policies and the contact page', () => {
    render(<Footer />);
    const policies = screen.getByRole('navigation', { name: 'Policies' });
    expect(hrefOf(policies, 'Privacy Policy')).toBe('/policy');
    expect(hrefOf(policies, 'Terms')).toBe('/termandcondition');
    expect(hrefOf(policies, 'Return Policy')).toBe('/termandcondition');
    expect(hrefOf(policies, 'Shipping Policy')).toBe('/termandcondition');
    expect(hrefOf(screen.getByRole('navigation', { name: 'Help' }), 'Contact us')).toBe('/contactus');
  });

  it('shows the current year', () => {
    render(<Footer />);
    expect(screen.getByText(new RegExp(`© ${new Date().getFullYear()} Marque Parts`))).toBeTruthy();
  });
});
