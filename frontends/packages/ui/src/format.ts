// How the shop writes money: Indian rupees, Indian digit grouping (₹1,24,999).

const wholeRupees = new Intl.NumberFormat('en-IN', {
  style: 'currency',
  currency: 'INR',
  maximumFractionDigits: 0,
});
const withPaise = new Intl.NumberFormat('en-IN', {
  style: 'currency',
  currency: 'INR',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

export function formatRupees(amount: number): string {
  return Number.isInteger(amount) ? wholeRupees.format(amount) : withPaise.format(amount);
}
