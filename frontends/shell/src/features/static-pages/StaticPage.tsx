// The frame of a page of plain text: its heading doubles as the page title.
import { useDocumentTitle } from '@marque/ui';
import type { ReactNode } from 'react';

export function StaticPage({ title, children }: { title: string; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <article className="static-page">
      <h1>{title}</h1>
      {children}
    </article>
  );
}
