// An admin page's heading and the tab title.
import { useDocumentTitle } from '@marque/ui';
import type { ReactNode } from 'react';

export function AdminPage({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <section className="admin-page">
      <div className="admin-page__head">
        <h1>{title}</h1>
        {actions}
      </div>
      {children}
    </section>
  );
}
