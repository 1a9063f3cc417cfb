import { describe, expect, it } from 'vitest';
import { fileOf } from './files';

const answer = (body: string, type: string, status = 200) => Promise.resolve(new Response(body, { status, headers: { 'content-type': type } }));

describe('fileOf', () => {
  it('gives the body of an answer of the type asked for', async () => {
    const blob = await fileOf(answer('%PDF-1.7', 'application/pdf'), 'application/pdf');
    expect(await blob?.text()).toBe('%PDF-1.7');
  });

  it('gives nothing for a refusal, another type or a network failure', async () => {
    expect(await fileOf(answer('{"status":"failed"}', 'application/json', 404), 'application/pdf')).toBeNull();
    expect(await fileOf(answer('<html>', 'text/html'), 'text/csv')).toBeNull();
    expect(await fileOf(Promise.reject(new TypeError('offline')), 'text/csv')).toBeNull();
  });
});
