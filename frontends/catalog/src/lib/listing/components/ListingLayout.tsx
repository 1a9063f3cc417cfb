// Category and subcategory pages: the filter sidebar on the left, the products beside it.
import type { ReactNode } from 'react';

export function ListingLayout({ sidebar, children }: { sidebar: ReactNode; children: ReactNode }) {
  return (
    <div className="listing listing-layout">
      {sidebar}
      <div className="listing-layout__main">{children}</div>
    </div>
  );
}
