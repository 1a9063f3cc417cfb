// Page titles follow '{title} - Marque Parts'; without a title the page is just 'Marque Parts'.
import { useEffect } from 'react';
import { SHOP_NAME } from './shop';

export function documentTitle(title?: string): string {
  return title ? `${title} - ${SHOP_NAME}` : SHOP_NAME;
}

export function useDocumentTitle(title?: string) {
  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
}
