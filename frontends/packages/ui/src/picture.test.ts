import { describe, expect, it } from 'vitest';
import { CARD_SIZES, pictureAttributes, PRODUCT_SIZES, webpSrcSet } from './picture';

const photo = {
  name: '/media/products/p1/ab-1600.jpeg',
  width: 4000,
  height: 3000,
  variants: [640, 320, 1600].flatMap((width) => [
    { name: `/media/products/p1/ab-${width}.webp`, width, height: (width * 3) / 4, format: 'webp' },
    { name: `/media/products/p1/ab-${width}.jpeg`, width, height: (width * 3) / 4, format: 'jpeg' },
  ]),
};

describe('pictureAttributes', () => {
  it('offers the WebP variants narrowest first with the slot sizes, the JPEG as src, and the photo size', () => {
    expect(pictureAttributes(photo, PRODUCT_SIZES, { width: 640, height: 480 })).toEqual({
      src: '/media/products/p1/ab-1600.jpeg',
      srcSet: '/media/products/p1/ab-320.webp 320w, /media/products/p1/ab-640.webp 640w, /media/products/p1/ab-1600.webp 1600w',
      sizes: PRODUCT_SIZES,
      width: 4000,
      height: 3000,
    });
  });

  it('keeps a drawing with only an address at the slot default size, without srcset', () => {
    expect(pictureAttributes({ name: '/media/parts/disc-1.svg' }, CARD_SIZES, { width: 320, height: 240 })).toEqual({
      src: '/media/parts/disc-1.svg',
      width: 320,
      height: 240,
    });
    expect(webpSrcSet({ name: '/a.svg', variants: [] })).toBeUndefined();
  });

  it('keeps the sizes the server preloads with (apps/storefront/src/first_load.rs)', () => {
    expect(PRODUCT_SIZES).toBe('(max-width: 768px) 100vw, 640px');
    expect(CARD_SIZES).toBe('(max-width: 600px) 50vw, 320px');
  });
});
