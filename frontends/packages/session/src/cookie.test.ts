import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearSessionCookie, keepSessionCookie, sessionCookie } from './cookie';

/** Every string the code assigns to `document.cookie`, still passed on to the real setter. */
function recordCookieWrites(): string[] {
  const written: string[] = [];
  const descriptor = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
  if (!descriptor?.set || !descriptor.get) throw new Error('no document.cookie accessor');
  const { get, set } = descriptor;
  vi.spyOn(document, 'cookie', 'set').mockImplementation(function (this: Document, value: string) {
    written.push(value);
    set.call(this, value);
  });
  vi.spyOn(document, 'cookie', 'get').mockImplementation(function (this: Document) {
    return get.call(this) as string;
  });
  return written;
}

afterEach(() => {
  clearSessionCookie();
  vi.restoreAllMocks();
});

describe('the session cookie', () => {
  it('carries the token for the whole site, sent on links from elsewhere, for the 30 days of a session', () => {
    const written = recordCookieWrites();
    keepSessionCookie('tok_abc');
    expect(sessionCookie()).toBe('tok_abc');
    expect(written).toEqual(['marque_session=tok_abc; Path=/; SameSite=Lax; Max-Age=2592000']);
  });

  it('is written once while it already carries the token, and cleared by expiring it', () => {
    keepSessionCookie('tok_abc');
    const written = recordCookieWrites();
    keepSessionCookie('tok_abc');
    expect(written).toEqual([]);
    clearSessionCookie();
    expect(sessionCookie()).toBeNull();
    expect(written).toEqual(['marque_session=; Path=/; SameSite=Lax; Max-Age=0']);
  });
});
