// The language kept with the account (`PUT /api/account/language`): the emails and SMS about a customer's orders are
// sent in the language they last chose. The account remote sends it at sign-in; the shell's selector sends each
// change while signed in. Its own entry, outside every first load; it reaches the session through the singleton.
import type { RequestBody } from '@marque/api-client';
import { authorizedFetch, jsonBody } from '@marque/session';

export type AccountLanguage = RequestBody<'PUT /api/account/language'>['language'];

/** Keeps `language` with the signed-in customer's account. A failure is only logged: the page's language stands. */
export async function keepLanguage(language: AccountLanguage, token: string): Promise<void> {
  try {
    const call = jsonBody('PUT /api/account/language', { language });
    const response = await authorizedFetch('/api/account/language', call, token);
    if (!response.ok) console.error(`[marque] the language could not be kept with the account (${response.status})`);
  } catch (error) {
    console.error('[marque] the language could not be kept with the account', error);
  }
}
