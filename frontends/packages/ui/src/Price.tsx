// A price as the shop shows it everywhere: rupees, GST included.
import { useT } from '@marque/i18n';
import { formatRupees } from './format';

export function Price({ amount, className }: { amount: number; className?: string }) {
  const t = useT('common');
  return (
    <span className={className ? `price ${className}` : 'price'}>
      <span className="price__amount">{formatRupees(amount)}</span> <span className="price__tax">{t('price.inc_gst')}</span>
    </span>
  );
}
