import { setLanguage, useT } from '@marque/i18n';
import { CONDITION_LABELS, fuelLabel } from '@marque/rules';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { conditionText, fuelText } from './labels';

function Labels({ condition, fuel }: { condition: string; fuel: string }) {
  const t = useT('common');
  return (
    <p>
      {conditionText(t, condition)} / {fuelText(t, fuel)}
    </p>
  );
}

afterEach(() => setLanguage('en'));

describe('condition and fuel labels', () => {
  it('match the labels of the rules in English', () => {
    for (const [code, label] of Object.entries(CONDITION_LABELS)) {
      const { unmount } = render(<Labels condition={code} fuel="petrol" />);
      expect(screen.getByText(`${label} / Petrol`)).toBeTruthy();
      unmount();
    }
    for (const code of ['petrol', 'diesel', 'hybrid', 'electric', 'cng']) {
      const { unmount } = render(<Labels condition="salvage" fuel={code} />);
      expect(screen.getByText(`Stock Lot / ${fuelLabel(code)}`)).toBeTruthy();
      unmount();
    }
  });

  it('are translated', async () => {
    render(<Labels condition="old" fuel="diesel" />);
    await act(() => setLanguage('hi'));
    expect(screen.getByText('पुराना / डीज़ल')).toBeTruthy();
  });
});
