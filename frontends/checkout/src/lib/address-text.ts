// An address on one line, as lists and the review show it: the filled parts joined by commas.
import type { Address } from '@marque/cart';

export function addressLine(address: Address): string {
  return [address.houseNo, address.street, address.landmark, address.city, address.state, address.pincode]
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .join(', ');
}
