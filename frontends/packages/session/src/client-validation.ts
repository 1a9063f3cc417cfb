// The value of the `x-client-validation` header every authorized call carries (PRODUCT_RULES.md).
// One place, so the way the value reaches the page can change without touching a caller.

declare global {
  interface Window {
    __MARQUE_CLIENT_VALIDATION__?: string;
  }
}

export const CLIENT_VALIDATION_HEADER = 'x-client-validation';

/** The page's client validation value: `<meta name="marque-client-validation">`, else the global, else ''. */
export function clientValidation(): string {
  if (typeof document !== 'undefined') {
    const meta = document.querySelector<HTMLMetaElement>('meta[name="marque-client-validation"]');
    if (meta?.content) return meta.content;
  }
  return (typeof window !== 'undefined' ? window.__MARQUE_CLIENT_VALIDATION__ : undefined) ?? '';
}
