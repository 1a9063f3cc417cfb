import { failed } from '@marque/api-client/testing';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { ProductImage } from '../../lib/api/provisional';
import { adminServer } from '../../test/server';
import { PHOTO_FIELD, PhotosPanel } from './PhotosPanel';

function Harness({ start }: { start: ProductImage[] }) {
  const [images, setImages] = useState(start);
  return <PhotosPanel id="p1" images={images} onChange={setImages} />;
}

const names = () => screen.getAllByRole('img').map((img) => img.getAttribute('src'));

describe('the photographs of a product', () => {
  it('uploads several at once, in one request', async () => {
    const server = adminServer({
      'POST /api/admin/products/{id}/photos': () => ({ images: [{ name: '/blobs/1.jpg' }, { name: '/blobs/2.jpg' }, { name: '/blobs/3.jpg' }] }),
    });
    render(<Harness start={[]} />);
    expect(screen.getByText('No photographs yet.')).toBeTruthy();
    const files = ['1', '2', '3'].map((n) => new File([n], `${n}.jpg`, { type: 'image/jpeg' }));
    await userEvent.upload(screen.getByLabelText('Add photographs'), files);
    await waitFor(() => expect(names()).toEqual(['/blobs/1.jpg', '/blobs/2.jpg', '/blobs/3.jpg']));
    const sent = server.calls.find((c) => c.method === 'POST')?.body as FormData;
    expect(sent.getAll(PHOTO_FIELD).map((f) => (f as File).name)).toEqual(['1.jpg', '2.jpg', '3.jpg']);
  });

  it('moves one later and removes one, showing the order the server answers', async () => {
    const server = adminServer({
      'PUT /api/admin/products/{id}/photos/order': ({ body }) => ({ images: body.names.map((name) => ({ _id: name.slice(1, 2), name })) }),
      'DELETE /api/admin/products/{id}/photos/{photoId}': ({ params }) => ({
        images: [{ _id: 'b', name: '/b.jpg' }, { _id: 'a', name: '/a.jpg' }, { _id: 'c', name: '/c.jpg' }].filter((p) => p._id !== params.photoId),
      }),
    });
    render(<Harness start={[{ _id: 'a', name: '/a.jpg' }, { _id: 'b', name: '/b.jpg' }, { _id: 'c', name: '/c.jpg' }]} />);
    await userEvent.click(screen.getByRole('button', { name: 'Move photograph 1 later' }));
    await waitFor(() => expect(names()).toEqual(['/b.jpg', '/a.jpg', '/c.jpg']));
    expect(server.calls.find((c) => c.method === 'PUT')).toMatchObject({ path: '/api/admin/products/p1/photos/order', body: { names: ['/b.jpg', '/a.jpg', '/c.jpg'] } });
    await userEvent.click(screen.getAllByRole('button', { name: 'Remove' })[1]!);
    await waitFor(() => expect(names()).toEqual(['/b.jpg', '/c.jpg']));
    expect(server.calls.find((c) => c.method === 'DELETE')?.path).toBe('/api/admin/products/p1/photos/a');
  });

  it("shows the server's refusal and keeps the photographs as they were", async () => {
    adminServer({ 'POST /api/admin/products/{id}/photos': () => failed(400, 'This picture is larger than 50 megapixels.', 'photo.too_large') });
    render(<Harness start={[{ name: '/a.jpg' }]} />);
    await userEvent.upload(screen.getByLabelText('Add photographs'), new File(['x'], 'big.jpg', { type: 'image/jpeg' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This picture is larger than 50 megapixels.');
    expect(names()).toEqual(['/a.jpg']);
  });
});
