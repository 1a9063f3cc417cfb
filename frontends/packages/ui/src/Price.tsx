// A price as the shop shows it everywhere: rupees, GST included.
import { formatRupees } from './format';

export function Price({ amount, className }: { amount: number; className?: string }) {
  return (
    <span className={className ? `price ${className}` : 'price'}>
      <span className="price__amount">{formatRupees(amount)}</span> <span className="price__tax">inc. GST</span>
    </span>
  );
}
