import { failed } from '@marque/api-client/testing';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { AdminPhoto } from '../../lib/api/types';
import { photo } from '../../test/products';
import { adminServer } from '../../test/server';
import { PHOTO_FIELD, PhotosPanel } from './PhotosPanel';

function Harness({ start }: { start: AdminPhoto[] }) {
  const [images, setImages] = useState(start);
  return <PhotosPanel id="p1" images={images} onChange={setImages} />;
}

/** Each thumbnail's picture, by the id its address names (`/media/products/p1/a-320.webp` → `a`). */
const shown = () => screen.getAllByRole('img').map((img) => /\/(\w+)-\d+\.\w+$/.exec(img.getAttribute('src') ?? '')?.[1]);

describe('the photographs of a product', () => {
  it('uploads several at once, in one request', async () => {
    const server = adminServer({
      'POST /api/admin/products/{id}/photos': () => ({ images: [photo('x1'), photo('x2'), photo('x3')] }),
    });
    render(<Harness start={[]} />);
    expect(screen.getByText('No photographs yet.')).toBeTruthy();
    const files = ['1', '2', '3'].map((n) => new File([n], `${n}.jpg`, { type: 'image/jpeg' }));
    await userEvent.upload(screen.getByLabelText('Add photographs'), files);
    await waitFor(() => expect(shown()).toEqual(['x1', 'x2', 'x3']));
    expect(screen.getAllByRole('img')[0]?.getAttribute('src')).toBe('/media/products/p1/x1-320.webp');
    const sent = server.calls.find((c) => c.method === 'POST')?.body as FormData;
    expect(sent.getAll(PHOTO_FIELD).map((f) => (f as File).name)).toEqual(['1.jpg', '2.jpg', '3.jpg']);
  });

  it('moves one later and removes one, showing the order the server answers', async () => {
    const server = adminServer({
      'PUT /api/admin/products/{id}/photos/order': ({ body }) => ({ images: body.names.map((name) => photo(/\/(\w+)-1600/.exec(name)?.[1] ?? '')) }),
      'DELETE /api/admin/products/{id}/photos/{photoId}': ({ params }) => ({
        images: [photo('b'), photo('a'), photo('c')].filter((p) => p._id !== params.photoId),
      }),
    });
    render(<Harness start={[photo('a'), photo('b'), photo('c')]} />);
    await userEvent.click(screen.getByRole('button', { name: 'Move photograph 1 later' }));
    await waitFor(() => expect(shown()).toEqual(['b', 'a', 'c']));
    expect(server.calls.find((c) => c.method === 'PUT')).toMatchObject({
      path: '/api/admin/products/p1/photos/order',
      body: { names: ['/media/products/p1/b-1600.jpg', '/media/products/p1/a-1600.jpg', '/media/products/p1/c-1600.jpg'] },
    });
    await userEvent.click(screen.getAllByRole('button', { name: 'Remove' })[1]!);
    await waitFor(() => expect(shown()).toEqual(['b', 'c']));
    expect(server.calls.find((c) => c.method === 'DELETE')?.path).toBe('/api/admin/products/p1/photos/a');
  });

  it("shows the server's refusal and keeps the photographs as they were", async () => {
    const tooLarge = 'This photograph is too large: at most 50 megapixels and 25 MB a file.';
    adminServer({ 'POST /api/admin/products/{id}/photos': () => failed(400, tooLarge, 'photo.too_large') });
    render(<Harness start={[photo('a')]} />);
    await userEvent.upload(screen.getByLabelText('Add photographs'), new File(['x'], 'big.jpg', { type: 'image/jpeg' }));
    expect((await screen.findByRole('alert')).textContent).toBe(tooLarge);
    expect(shown()).toEqual(['a']);
  });
});
