import { closeGarage, getGarage } from '@marque/session';
import { resetGarage, testCar } from '@marque/session/testing';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { GarageButton } from './GarageButton';

afterEach(() => {
  act(() => {
    closeGarage();
    resetGarage();
  });
});

describe('the header’s garage button', () => {
  it('says My garage without a car and opens the garage panel', async () => {
    resetGarage();
    render(<GarageButton />);
    const button = screen.getByRole('button', { name: 'My garage' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    await userEvent.click(button);
    expect(getGarage().open).toBe(true);
    expect(button.getAttribute('aria-expanded')).toBe('true');
  });

  it('names the car in use from its first render, and follows a change', () => {
    resetGarage([testCar()]);
    render(<GarageButton />);
    const button = screen.getByRole('button', { name: 'My garage: X5 (G05) 3.0d' });
    expect(button.getAttribute('title')).toBe('My garage: X5 (G05) 3.0d');
    act(() => resetGarage([testCar()], null));
    expect(screen.getByRole('button', { name: 'My garage' })).toBeTruthy();
  });
});
