// The six-digit code an authenticator app shows for a staff member's TOTP secret, computed by the `otpauth` library
// (RFC 6238 with the parameters of the server's `otpauth://` URI: SHA-1, 30-second steps, 6 digits): what the
// journeys and the benches sign in to the back office with.
import { Secret, TOTP, URI } from 'otpauth';

/** The authenticator of an `otpauth://totp/…` URI (its own parameters) or of a base32 secret (the server's). */
export function authenticatorOf(uriOrBase32Secret) {
  if (uriOrBase32Secret.startsWith('otpauth://')) {
    const parsed = URI.parse(uriOrBase32Secret);
    if (!(parsed instanceof TOTP)) throw new Error('not a TOTP URI');
    return parsed;
  }
  return new TOTP({ issuer: 'Marque', secret: Secret.fromBase32(uriOrBase32Secret), algorithm: 'SHA1', digits: 6, period: 30 });
}

/** The code at `atMs` (milliseconds since the epoch). */
export function totpCode(uriOrBase32Secret, atMs = Date.now()) {
  return authenticatorOf(uriOrBase32Secret).generate({ timestamp: atMs });
}

/** At `atMs`: the time step (the server accepts a step's code once), its code, and the milliseconds it has left. */
export function totpStep(uriOrBase32Secret, atMs = Date.now()) {
  const totp = authenticatorOf(uriOrBase32Secret);
  return {
    step: totp.counter({ timestamp: atMs }),
    code: totp.generate({ timestamp: atMs }),
    msLeft: totp.remaining({ timestamp: atMs }),
  };
}
