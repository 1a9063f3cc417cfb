// Page titles follow '{title} - {shop name}'; without a title the page is just the shop's name.
import { useEffect } from 'react';
import { shopIdentity } from './shop-identity';

export function documentTitle(title?: string): string {
  const shop = shopIdentity().name;
  return title ? `${title} - ${shop}` : shop;
}

export function useDocumentTitle(title?: string) {
  useEffect(() => {
    const full = documentTitle(title);
    document.title = full;
    document.head.querySelector('meta[property="og:title"]')?.setAttribute('content', full);
  }, [title]);
}
