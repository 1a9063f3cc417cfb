// A product picture's <img> attributes: its address, its WebP variants as `srcset` with the slot's `sizes`, and
// its own width and height (so the browser keeps its box before it arrives). The demo's drawings have only an
// address; they keep the slot's default size.
//
// The slots' `sizes` are also written by the server's first-load preloads (apps/storefront/src/first_load.rs,
// PRODUCT_SIZES and CARD_SIZES): keep the two in step, or the preloaded file is not the one the page shows.

export type PictureVariant = { name: string; width: number; height: number; format: string };
export type PictureRef = {
  name: string;
  width?: number | null;
  height?: number | null;
  variants?: ReadonlyArray<PictureVariant> | null;
};

/** The product page's main picture: the whole width on a phone, at most 640 CSS pixels beside the details. */
export const PRODUCT_SIZES = '(max-width: 768px) 100vw, 640px';
/** A card of a list: two a row on a phone, 320 CSS pixels at most. */
export const CARD_SIZES = '(max-width: 600px) 50vw, 320px';
/** A thumbnail under the product page's picture. */
export const THUMB_SIZES = '80px';

export type PictureAttributes = {
  src: string;
  srcSet?: string;
  sizes?: string;
  width: number;
  height: number;
};

/** The WebP variants as a `srcset` (narrowest first), or undefined when there are none. */
export function webpSrcSet(image: PictureRef): string | undefined {
  const webp = (image.variants ?? []).filter((v) => v.format === 'webp').sort((a, b) => a.width - b.width);
  return webp.length > 0 ? webp.map((v) => `${v.name} ${v.width}w`).join(', ') : undefined;
}

export function pictureAttributes(
  image: PictureRef,
  sizes: string,
  fallback: { width: number; height: number },
): PictureAttributes {
  const srcSet = webpSrcSet(image);
  const sized = image.width && image.height ? { width: image.width, height: image.height } : fallback;
  return srcSet ? { src: image.name, srcSet, sizes, ...sized } : { src: image.name, ...sized };
}
