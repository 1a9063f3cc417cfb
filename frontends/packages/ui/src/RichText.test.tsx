import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { richText } from './RichText';

describe('richText', () => {
  it('puts elements where the translation places them', () => {
    const hindi = (vars: Record<string, string>) => `किसी भी पार्ट के लिए ${vars.phone} पर कॉल करें।`;
    render(<p>{richText(hindi, { phone: <a href="tel:+919810012345">+91 98100 12345</a> })}</p>);
    expect(screen.getByText(/किसी भी पार्ट के लिए/).textContent).toBe('किसी भी पार्ट के लिए +91 98100 12345 पर कॉल करें।');
    expect(screen.getByRole('link', { name: '+91 98100 12345' })).toBeTruthy();
  });
});
