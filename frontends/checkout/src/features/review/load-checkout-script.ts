// The payment provider's checkout script, put into the page only when the shopper presses Pay.
import { getPaymentSettings } from './api/get-payment-settings';

/** The part of the provider's checkout the review page uses. */
export type ProviderCheckout = {
  open(): void;
  on(event: 'payment.failed', handler: (response: unknown) => void): void;
};
export type ProviderOptions = {
  key: string;
  amount: number;
  currency: string;
  order_id: string;
  name: string;
  description: string;
  prefill: { name: string; email: string; contact: string };
  handler: (answer: { razorpay_payment_id: string; razorpay_order_id: string; razorpay_signature: string }) => void;
  modal: { ondismiss: () => void };
};
export type ProviderConstructor = new (options: ProviderOptions) => ProviderCheckout;

declare global {
  interface Window {
    Razorpay?: ProviderConstructor;
  }
}

function injectScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      script.remove();
      reject(new Error(`${src} could not be loaded`));
    };
    document.body.appendChild(script);
  });
}

/** The provider's constructor and the shop's public key, or null when either could not be had. */
export async function loadCheckoutScript(): Promise<{ Provider: ProviderConstructor; key: string } | null> {
  try {
    const settings = await getPaymentSettings();
    if (!settings) return null;
    if (!window.Razorpay) await injectScript(settings.script);
    return window.Razorpay ? { Provider: window.Razorpay, key: settings.key } : null;
  } catch (error) {
    console.error('[marque] the payment script could not be loaded', error);
    return null;
  }
}
