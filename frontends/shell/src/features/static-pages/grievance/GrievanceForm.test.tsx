import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { failed, fakeServer, type FakeServer } from '@marque/api-client/testing';
import { setLanguage } from '@marque/i18n';
import { afterEach, describe, expect, it } from 'vitest';
import { GrievanceForm } from './GrievanceForm';

let server: FakeServer | undefined;

afterEach(async () => {
  server?.restore();
  server = undefined;
  await setLanguage('en');
});

async function fillIn() {
  await userEvent.type(screen.getByLabelText('Your name'), 'Asha Verma');
  await userEvent.type(screen.getByLabelText('Email'), 'asha@example.in');
  await userEvent.type(screen.getByLabelText('Mobile number'), '9810012345');
  await userEvent.type(screen.getByLabelText('Your grievance (20 to 2000 characters)'), 'The brake pads are for the wrong model.');
}

describe('GrievanceForm', () => {
  it('sends the grievance and shows its number', async () => {
    server = fakeServer(
      {},
      {
        'POST /api/grievances': () => ({
          status: 'success',
          message: 'Your grievance is registered.',
          code: 'grievance.received',
          number: 'GR/26-27/000001',
          acknowledgeBy: '2026-06-03T06:30:00Z',
          resolveBy: '2026-07-01T06:30:00Z',
        }),
      },
    );
    render(<GrievanceForm />);
    await fillIn();
    await userEvent.click(screen.getByRole('button', { name: 'Send grievance' }));
    expect((await screen.findByRole('status')).textContent).toContain('Your grievance number is GR/26-27/000001.');
    expect(server.calls[0]?.body).toEqual({
      name: 'Asha Verma',
      email: 'asha@example.in',
      mobile: '9810012345',
      message: 'The brake pads are for the wrong model.',
    });
    expect((screen.getByLabelText('Your name') as HTMLInputElement).value).toBe('');
  });

  it("shows each field's refusal beside it, in Hindi too", async () => {
    server = fakeServer(
      {},
      {
        'POST /api/grievances': () =>
          Response.json(
            {
              status: 'failed',
              message: 'Enter a valid 10-digit Indian mobile number starting with 6-9',
              code: 'address.mobile_invalid',
              errors: [
                { field: 'mobile', message: 'x', code: 'address.mobile_invalid' },
                { field: 'message', message: 'y', code: 'grievance.message_invalid' },
              ],
            },
            { status: 400 },
          ),
      },
    );
    await setLanguage('hi');
    render(<GrievanceForm />);
    await userEvent.click(screen.getByRole('button', { name: 'शिकायत भेजें' }));
    const mobile = await screen.findByLabelText('मोबाइल नंबर');
    await waitFor(() => expect(mobile.getAttribute('aria-invalid')).toBe('true'));
    const issue = document.getElementById(mobile.getAttribute('aria-describedby') ?? '');
    expect(issue?.textContent).toMatch(/[\u0900-\u097F]/);
    expect(screen.getByLabelText('आपकी शिकायत (20 से 2000 अक्षर)').getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says when the shop is busy or the client sent too many', async () => {
    server = fakeServer({}, { 'POST /api/grievances': () => failed(429, 'Too many requests.', 'request.too_many') });
    render(<GrievanceForm />);
    await fillIn();
    await userEvent.click(screen.getByRole('button', { name: 'Send grievance' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Too many requests. Please wait a moment and try again.');
  });
});
