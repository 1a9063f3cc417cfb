// What follows every sign-in (email and password, OTP, Google): the garage of this device merged with the account's,
// and the language shown now kept with the account for the notices about the customer's orders.
import { currentLanguage } from '@marque/i18n';
import { mergeGarageAtSignIn } from '@marque/session/garage-sync';
import { keepLanguage } from '@marque/session/language-sync';

export function afterSignIn(token: string): void {
  void mergeGarageAtSignIn(token);
  void keepLanguage(currentLanguage(), token);
}
