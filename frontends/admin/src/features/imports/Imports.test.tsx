import { failed } from '@marque/api-client/testing';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AdminImport } from '../../lib/api/types';
import { adminServer, CATALOG } from '../../test/server';
import { ImportPage, readErrors } from './ImportPage';
import { ImportsPage } from './ImportsPage';

function job(over: Partial<AdminImport> = {}): AdminImport {
  return {
    id: 'imp1',
    mode: 'dry-run',
    state: 'done',
    fileName: 'parts.csv',
    createMissing: false,
    rowsTotal: 12,
    rowsRead: 12,
    accepted: 9,
    rejected: 3,
    created: 7,
    updated: 2,
    unchanged: 0,
    rowsPerSecond: 12,
    createdAt: '2026-11-27T06:30:00Z',
    startedAt: '2026-11-27T06:30:01Z',
    finishedAt: '2026-11-27T06:30:02Z',
    photosTotal: 0,
    photosDone: 0,
    photosFailed: 0,
    ...over,
  };
}

const ERRORS = [
  'line,column,value,code,message',
  '3,price,-1,product.price_invalid,Enter a price of at least ₹1.',
  '5,gst,7,import.unknown_rate,"GST must be 0, 5, 12, 18 or 28"',
  '9,name,"Pad, ""front""\nleft",custom.code,Server text',
  `11,description,${'d'.repeat(5000)},product.description_invalid,Too long`,
].join('\r\n');

const csv = (text: string) => new Response(text, { headers: { 'content-type': 'text/csv; charset=utf-8' } });

describe('catalog imports', () => {
  it('uploads the chosen file with the chosen mode and opens its job', async () => {
    window.history.replaceState(null, '', '/admin/imports');
    const server = adminServer({ 'POST /api/admin/imports': () => ({ id: 'imp9', mode: 'apply', state: 'queued' }) }, CATALOG);
    render(<ImportsPage />);
    const upload = screen.getByRole('button', { name: 'Upload' });
    expect((upload as HTMLButtonElement).disabled).toBe(true);
    await userEvent.upload(screen.getByLabelText('CSV file'), new File(['sku,price\nA1,100\n'], 'parts.csv', { type: 'text/csv' }));
    await userEvent.click(screen.getByRole('radio', { name: 'Apply: write the rows that pass' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Create missing categories and brands' }));
    await userEvent.upload(screen.getByLabelText('Photographs (zip, optional)'), new File(['PK'], 'photos.zip', { type: 'application/zip' }));
    await userEvent.click(upload);
    await waitFor(() => expect(window.location.pathname).toBe('/admin/imports/imp9'));
    const post = server.calls.find((c) => c.method === 'POST');
    const form = post?.body as FormData;
    expect(form.get('mode')).toBe('apply');
    expect(form.get('createMissing')).toBe('true');
    expect((form.get('file') as File).name).toBe('parts.csv');
    expect((form.get('photos') as File).name).toBe('photos.zip');
  });

  it('sends no photos field without a zip', async () => {
    const server = adminServer({ 'POST /api/admin/imports': () => ({ id: 'imp8', mode: 'dry-run', state: 'queued' }) }, CATALOG);
    render(<ImportsPage />);
    await userEvent.upload(screen.getByLabelText('CSV file'), new File(['sku\nA1\n'], 'parts.csv', { type: 'text/csv' }));
    await userEvent.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(server.calls.some((c) => c.method === 'POST')).toBe(true));
    const form = server.calls.find((c) => c.method === 'POST')?.body as FormData;
    expect(form.get('photos')).toBeNull();
    expect(form.get('createMissing')).toBeNull();
  });

  it("follows the photographs after the rows, then lists the ones that failed", async () => {
    let reads = 0;
    const done = { mode: 'apply' as const, state: 'done' as const, rejected: 0, accepted: 12, created: 12, updated: 0 };
    adminServer({
      'GET /api/admin/imports/{id}': () => {
        reads += 1;
        return reads === 1
          ? job({ ...done, photosTotal: 5, photosDone: 2, photosFailed: 0, photosPerSecond: 1 })
          : job({ ...done, photosTotal: 5, photosDone: 4, photosFailed: 1, photosPerSecond: 2 });
      },
      'GET /api/admin/imports/{id}/errors.csv': () =>
        csv('line,column,value,code,message\r\n3,photos,notes.txt,photo.invalid,Not a photograph'),
    });
    render(<ImportPage id="imp1" />);
    expect(await screen.findByText(/2 of 5 photographs added/)).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Photographs' })).toBeTruthy();
    await waitFor(() => expect(screen.getByText(/4 of 5 photographs added/)).toBeTruthy(), { timeout: 3000 });
    expect(screen.getByText(/1 not added/)).toBeTruthy();
    const table = await screen.findByRole('table');
    expect(within(table).getByText('notes.txt')).toBeTruthy();
    expect(reads).toBe(2);
  });

  it("shows the server's refusal of a file", async () => {
    adminServer({ 'POST /api/admin/imports': () => failed(413, 'The file is above 100 MB.', 'import.file_too_large') });
    render(<ImportsPage />);
    await userEvent.upload(screen.getByLabelText('CSV file'), new File(['x'], 'big.csv', { type: 'text/csv' }));
    await userEvent.click(screen.getByRole('button', { name: 'Upload' }));
    expect((await screen.findByRole('alert')).textContent).not.toBe('');
  });

  it('reads an errors.csv with quoted commas, quotes and line breaks, and a BOM', () => {
    const cells = readErrors(`\uFEFF${ERRORS}`);
    expect(cells).toHaveLength(4);
    expect(cells[0]).toEqual({ line: '3', column: 'price', value: '-1', code: 'product.price_invalid', message: 'Enter a price of at least ₹1.' });
    expect(cells[1]?.message).toBe('GST must be 0, 5, 12, 18 or 28');
    expect(cells[2]?.value).toBe('Pad, "front"\nleft');
  });

  it("lists a finished dry run's refused rows and says nothing was written", async () => {
    adminServer({
      'GET /api/admin/imports/{id}': () => job(),
      'GET /api/admin/imports/{id}/errors.csv': () => csv(ERRORS),
    });
    render(<ImportPage id="imp1" />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Dry run of parts.csv' })).toBeTruthy();
    expect(screen.getByText(/Nothing was written/)).toBeTruthy();
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(5);
    // A long value is cut short on the page.
    expect(within(rows[4]!).getByText(`${'d'.repeat(120)}…`)).toBeTruthy();
    expect(within(rows[1]!).getByText('price')).toBeTruthy();
    expect(within(rows[1]!).getByText('-1')).toBeTruthy();
    // A code the rules know is shown in the reader's words; an unknown one keeps the server's text.
    expect(within(rows[3]!).getByText('Server text')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download errors.csv' })).toBeTruthy();
  });

  it('reads a running job again until it ends', async () => {
    let reads = 0;
    const server = adminServer({
      'GET /api/admin/imports/{id}': () => {
        reads += 1;
        return reads === 1
          ? job({ mode: 'apply', state: 'running', rowsRead: 4, rejected: 0, accepted: 4, secondsLeft: 2, finishedAt: undefined })
          : job({ mode: 'apply', state: 'done', rejected: 0, accepted: 12, created: 12, updated: 0 });
      },
      'POST /api/admin/imports/{id}/cancel': () => job({ mode: 'apply', state: 'cancelled', rejected: 0 }),
    });
    render(<ImportPage id="imp1" />);
    const status = await screen.findByRole('status');
    expect(status.textContent).toContain('Running');
    expect(status.textContent).toContain('4 of 12 rows');
    expect(screen.getByRole('button', { name: 'Stop the import' })).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('Done'), { timeout: 3000 });
    expect(reads).toBe(2);
    expect(screen.queryByRole('button', { name: 'Stop the import' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Import another file' })).toBeTruthy();
    expect(server.calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('stops a running job', async () => {
    let stopped = false;
    const stoppedJob = () => job({ mode: 'apply', state: 'cancelled', rejected: 0 });
    const server = adminServer({
      'GET /api/admin/imports/{id}': () =>
        stopped ? stoppedJob() : job({ mode: 'apply', state: 'queued', rowsTotal: 0, rowsRead: 0, finishedAt: undefined }),
      'POST /api/admin/imports/{id}/cancel': () => {
        stopped = true;
        return stoppedJob();
      },
    });
    render(<ImportPage id="imp1" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Stop the import' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('Stopped'));
    expect(server.calls.find((c) => c.method === 'POST')?.path).toBe('/api/admin/imports/imp1/cancel');
  });
});
