// Any address the shop does not know.
import { useT } from '@marque/i18n';
import { useDocumentTitle } from '@marque/ui';
import { Link } from 'wouter';

export function NotFoundPage() {
  const t = useT('shell');
  useDocumentTitle(t('not_found.title'));
  return (
    <div className="static-page">
      <h1>{t('not_found.title')}</h1>
      <p>
        <Link href="/">{t('not_found.home')}</Link>
      </p>
    </div>
  );
}
