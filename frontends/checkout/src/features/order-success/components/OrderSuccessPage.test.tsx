import { getCart, selectAddress } from '@marque/cart';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PAYMENT_STATE } from '../../../lib/payment-state';
import { OrderSuccessPage } from './OrderSuccessPage';

const address = { _id: 'a1', houseNo: '1', street: '', landmark: '', city: 'Pune', state: 'Maharashtra', mobileNo: '9876543210', pincode: '411001', gstin: '' };

describe('the order confirmation', () => {
  it('goes home when the visit carries no payment flag', () => {
    window.history.replaceState(null, '', '/ordersuccess');
    render(<OrderSuccessPage />);
    expect(window.location.pathname).toBe('/');
    expect(screen.queryByRole('heading', { name: 'Order Confirmed!' })).toBeNull();
  });

  it('confirms the order, lists the next steps and resets the selected address', () => {
    selectAddress(address);
    window.history.replaceState(PAYMENT_STATE, '', '/ordersuccess');
    render(<OrderSuccessPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Order Confirmed!' })).toBeTruthy();
    for (const step of ['Order Processing', 'Shipping', 'Support']) expect(screen.getByRole('heading', { name: step })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Continue Shopping' }).getAttribute('href')).toBe('/');
    expect(getCart().address).toBeNull();
  });
});
