import { truncateTitle } from '@marque/rules';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ProductCard, type ProductCardProduct } from './ProductCard';

const caliper: ProductCardProduct = {
  _id: 'p-42',
  name: 'Front Brake Caliper Left Hand Side for BMW 5 Series G30 530d xDrive',
  price: 12499,
  quantity: 3,
  producttype: 'new_without_box',
  images: [{ name: '/images/caliper.svg' }],
};

describe('ProductCard', () => {
  it("asks for a lazy card's picture once the first frame is painted, an eager card's at once", async () => {
    // Fresh modules: whether the first frame was painted is remembered for the page's life.
    vi.resetModules();
    const { ProductCard: Card } = await import('./ProductCard');
    render(
      <>
        <Card product={caliper} titleLimit={70} eager />
        <Card product={{ ...caliper, _id: 'p-43', images: [{ name: '/images/pads.svg' }] }} titleLimit={70} />
      </>,
    );
    const [eager, lazy] = Array.from(document.querySelectorAll('img'));
    expect(eager?.getAttribute('src')).toBe('/images/caliper.svg');
    expect(lazy?.getAttribute('src')).toBeNull();
    // The box is kept while it waits: no shift when the picture arrives.
    expect([lazy?.getAttribute('width'), lazy?.getAttribute('height')]).toEqual(['320', '240']);
    await waitFor(() => expect(lazy?.getAttribute('src')).toBe('/images/pads.svg'));
  });

  it('shows name, condition, stock and price with GST', () => {
    render(<ProductCard product={caliper} titleLimit={70} />);
    expect(screen.getByRole('heading', { name: caliper.name })).toBeTruthy();
    expect(screen.getByText('New Without Box')).toBeTruthy();
    expect(screen.getByText('Stock: 3')).toBeTruthy();
    expect(screen.getByText('₹12,499')).toBeTruthy();
    expect(screen.getByText('inc. GST')).toBeTruthy();
    expect(screen.queryByText('OUT OF STOCK')).toBeNull();
  });

  it('says OUT OF STOCK when fewer than one is left', () => {
    render(<ProductCard product={{ ...caliper, quantity: 0 }} titleLimit={70} />);
    expect(screen.getByText('OUT OF STOCK')).toBeTruthy();
    expect(screen.queryByText(/Stock:/)).toBeNull();
  });

  it('shortens long names to the limit it is given', () => {
    render(<ProductCard product={caliper} titleLimit={20} />);
    const link = screen.getByRole('link');
    expect(link.textContent).toBe(truncateTitle(caliper.name, 20));
    expect(link.textContent).not.toBe(caliper.name);
    expect(link.getAttribute('title')).toBe(caliper.name);
  });

  it('shows an unknown condition as Stock Lot', () => {
    render(<ProductCard product={{ ...caliper, producttype: 'salvage' }} titleLimit={70} />);
    expect(screen.getByText('Stock Lot')).toBeTruthy();
  });

  it('opens the product page', async () => {
    render(<ProductCard product={caliper} titleLimit={70} />);
    await userEvent.click(screen.getByRole('link'));
    expect(window.location.pathname + window.location.search).toBe('/product?productId=p-42');
  });
});

describe('ProductCard actions', () => {
  it('shows what another feature puts over the picture (the wishlist heart)', () => {
    render(
      <ProductCard
        product={{ _id: 'p1', name: 'Pump', price: 100, quantity: 1, producttype: 'new', images: [] }}
        titleLimit={50}
        actions={<button type="button">Heart</button>}
      />,
    );
    expect(screen.getByRole('button', { name: 'Heart' }).closest('.product-card__actions')).toBeTruthy();
  });
});

describe('a card of a photographed product', () => {
  it('gives the browser the WebP widths for a card slot and the photo size', () => {
    const photo = {
      name: '/media/products/p-42/ab-1600.jpeg',
      width: 3000,
      height: 4000,
      variants: [320, 640].map((width) => ({
        name: `/media/products/p-42/ab-${width}.webp`,
        width,
        height: (width * 4) / 3,
        format: 'webp',
      })),
    };
    render(<ProductCard product={{ ...caliper, images: [photo] }} titleLimit={70} eager />);
    const img = document.querySelector('img')!;
    expect(img.getAttribute('src')).toBe(photo.name);
    expect(img.getAttribute('srcset')).toBe('/media/products/p-42/ab-320.webp 320w, /media/products/p-42/ab-640.webp 640w');
    expect(img.getAttribute('sizes')).toBe('(max-width: 600px) 50vw, 320px');
    expect([img.getAttribute('width'), img.getAttribute('height')]).toEqual(['3000', '4000']);
  });

  it("shows a used unit's grade in its condition badge, and the superseded number a search found it by", () => {
    render(<ProductCard product={{ ...caliper, producttype: 'old', grade: 'B', supersedes: 'A 000 180 16 09' }} titleLimit={70} />);
    expect(screen.getByText('Grade B')).toBeTruthy();
    expect(screen.getByText('Supersedes A 000 180 16 09')).toBeTruthy();
  });

  it('shows no grade nor supersedes line for a part without them', () => {
    render(<ProductCard product={caliper} titleLimit={70} />);
    expect(screen.queryByText(/Grade/)).toBeNull();
    expect(screen.queryByText(/Supersedes/)).toBeNull();
  });
});
