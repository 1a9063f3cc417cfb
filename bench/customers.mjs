// A customer for the benches: signed up by mobile (the code read from the dev outbox), with a Delhi
// address, as `{ token, address }` (the session token and the address's id).

import { codeFor, outbox } from '../frontends/e2e/outbox.mjs';
import { json, authed } from '../frontends/e2e/pages.mjs';

export async function customer(base, mobile) {
  const form = new FormData();
  for (const [k, v] of Object.entries({ name: 'Bench Buyer', email: `bench.${mobile}@example.in`, password: 'Bench@2026', mobile })) {
    form.append(k, v);
  }
  const before = (await outbox(base)).length;
  await json(base, '/api/register', { method: 'POST', body: form });
  const otp = await codeFor(base, [mobile], before);
  const { token } = await json(base, '/api/verify', authed('', 'POST', { mobile, otp }));
  const { user } = await json(base, '/api/user', { headers: { authorization: `Bearer ${token}` } });
  const address = { houseNo: '1', street: '', landmark: '', city: 'New Delhi', state: 'Delhi', mobileNo: mobile, pincode: '110001', gstin: '' };
  const added = await json(base, `/api/add/address/${user._id}`, authed(token, 'PATCH', address));
  return { token, address: added._id };
}
