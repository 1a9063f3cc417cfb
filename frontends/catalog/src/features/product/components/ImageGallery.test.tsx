import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ImageGallery } from './ImageGallery';

const NAME = 'Front Brake Disc Pair';
const IMAGES = [{ name: '/img/a.svg' }, { name: '/img/b.svg' }, { name: '/img/c.svg' }];

function renderGallery() {
  render(
    <>
      <button type="button">before</button>
      <ImageGallery images={IMAGES} name={NAME} />
      <button type="button">after</button>
    </>,
  );
  return screen.getByRole('region', { name: 'Product images' });
}

const shownSrc = (scope: HTMLElement) => within(scope).getAllByRole('img', { name: NAME })[0]!.getAttribute('src');

describe('the product image carousel', () => {
  it('moves with the arrow keys while focus is in it, wrapping at both ends', async () => {
    const user = userEvent.setup();
    const gallery = renderGallery();
    expect(gallery.getAttribute('aria-roledescription')).toBe('carousel');

    await user.keyboard('{ArrowRight}'); // focus is outside: nothing moves
    expect(shownSrc(gallery)).toBe('/img/a.svg');

    await user.tab();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Open image 1 of 3 full screen' }));
    await user.keyboard('{ArrowRight}');
    expect(shownSrc(gallery)).toBe('/img/b.svg');
    expect(screen.getByRole('button', { name: 'Open image 2 of 3 full screen' })).toBeTruthy();
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(shownSrc(gallery)).toBe('/img/c.svg');
    expect(screen.getByRole('button', { name: 'Show image 3 of 3' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('follows a sideways swipe, and a swipe does not open the viewer', () => {
    const gallery = renderGallery();
    const stage = screen.getByRole('button', { name: 'Open image 1 of 3 full screen' }).parentElement!;

    fireEvent.pointerDown(stage, { pointerType: 'touch', clientX: 300, clientY: 100 });
    fireEvent.pointerUp(stage, { pointerType: 'touch', clientX: 180, clientY: 110 });
    fireEvent.click(screen.getByRole('button', { name: 'Open image 2 of 3 full screen' }));
    expect(shownSrc(gallery)).toBe('/img/b.svg');
    expect(screen.queryByRole('dialog')).toBeNull();

    fireEvent.pointerDown(stage, { pointerType: 'touch', clientX: 100, clientY: 100 });
    fireEvent.pointerUp(stage, { pointerType: 'touch', clientX: 220, clientY: 100 });
    expect(shownSrc(gallery)).toBe('/img/a.svg');

    // A short or mostly vertical movement is a tap or a scroll, not a swipe.
    fireEvent.pointerDown(stage, { pointerType: 'touch', clientX: 100, clientY: 100 });
    fireEvent.pointerUp(stage, { pointerType: 'touch', clientX: 70, clientY: 100 });
    fireEvent.pointerDown(stage, { pointerType: 'touch', clientX: 100, clientY: 100 });
    fireEvent.pointerUp(stage, { pointerType: 'touch', clientX: 40, clientY: 300 });
    expect(shownSrc(gallery)).toBe('/img/a.svg');
  });

  it('opens the full-screen viewer on click; Esc closes it and focus returns to the image', async () => {
    const user = userEvent.setup();
    renderGallery();
    const opener = screen.getByRole('button', { name: 'Open image 1 of 3 full screen' });
    await user.click(opener);

    const dialog = await screen.findByRole('dialog', { name: `Images of ${NAME}` });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(within(dialog).getByRole('img', { name: NAME }).getAttribute('src')).toBe('/img/a.svg');
    // The dialog focuses its close button in an effect, which may run after it first shows.
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Close' })));

    await user.keyboard('{ArrowRight}');
    expect(within(dialog).getByRole('img', { name: NAME }).getAttribute('src')).toBe('/img/b.svg');
    expect(within(dialog).getByText('Image 2 of 3')).toBeTruthy();
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(within(dialog).getByRole('img', { name: NAME }).getAttribute('src')).toBe('/img/c.svg');

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    // The carousel stays on the image the visitor last looked at, and focus is back on it.
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Open image 3 of 3 full screen' })),
    );
  });

  it('opens with Enter, closes with its close button, and keeps Tab inside while open', async () => {
    const user = userEvent.setup();
    renderGallery();
    screen.getByRole('button', { name: 'Open image 1 of 3 full screen' }).focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog');
    const [close, previous, next] = within(dialog).getAllByRole('button');
    expect([close, previous, next].map((b) => b!.getAttribute('aria-label'))).toEqual([
      'Close',
      'Previous image',
      'Next image',
    ]);

    await waitFor(() => expect(document.activeElement).toBe(close));
    await user.tab();
    expect(document.activeElement).toBe(previous);
    await user.tab();
    expect(document.activeElement).toBe(next);
    await user.tab();
    expect(document.activeElement).toBe(close);
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(next);

    await user.click(close!);
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Open image 1 of 3 full screen' })),
    );
  });
});

describe('a photographed product', () => {
  const variants = (id: string) =>
    [320, 640, 1024, 1600].flatMap((width) => [
      { name: `/media/products/p1/${id}-${width}.webp`, width, height: (width * 3) / 4, format: 'webp' },
      { name: `/media/products/p1/${id}-${width}.jpeg`, width, height: (width * 3) / 4, format: 'jpeg' },
    ]);
  const photos = ['aa', 'bb'].map((id) => ({
    name: `/media/products/p1/${id}-1600.jpeg`,
    width: 4000,
    height: 3000,
    variants: variants(id),
  }));

  it('offers the browser every WebP width with the slot sizes, and reserves the box by the photo size', () => {
    render(<ImageGallery images={photos} name={NAME} />);
    const main = screen.getAllByRole('img', { name: NAME })[0]!;
    expect(main.getAttribute('src')).toBe('/media/products/p1/aa-1600.jpeg');
    expect(main.getAttribute('srcset')).toBe(
      [320, 640, 1024, 1600].map((w) => `/media/products/p1/aa-${w}.webp ${w}w`).join(', '),
    );
    expect(main.getAttribute('sizes')).toBe('(max-width: 768px) 100vw, 640px');
    expect([main.getAttribute('width'), main.getAttribute('height')]).toEqual(['4000', '3000']);
    const thumbs = document.querySelectorAll('.gallery__thumb img');
    expect(thumbs).toHaveLength(2);
    expect(thumbs[1]!.getAttribute('sizes')).toBe('80px');
    expect(thumbs[1]!.getAttribute('srcset')).toContain('/media/products/p1/bb-320.webp 320w');
  });
});
