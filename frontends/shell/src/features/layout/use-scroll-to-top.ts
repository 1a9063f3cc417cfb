// Every route change, query included (search pages), starts at the top of the page.
import { useEffect } from 'react';
import { useLocation, useSearch } from 'wouter';

export function useScrollToTopOnRouteChange() {
  const [path] = useLocation();
  const search = useSearch();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [path, search]);
}
