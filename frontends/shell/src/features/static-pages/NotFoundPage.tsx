// Any address the shop does not know.
import { useDocumentTitle } from '@marque/ui';
import { Link } from 'wouter';

export function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <div className="static-page">
      <h1>Page not found</h1>
      <p>
        <Link href="/">Back to the home page</Link>
      </p>
    </div>
  );
}
