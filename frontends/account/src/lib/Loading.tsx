// The status line while a customer page waits for its data.
import { useT } from '@marque/i18n';

export function Loading() {
  const t = useT('account');
  return (
    <p className="status-message" role="status">
      {t('status.loading')}
    </p>
  );
}
