// A back-office form: no browser validation bubbles (the domain's messages show beside the fields), the refusal
// that names no field above it, and the save run on submit.
import type { ReactNode } from 'react';
import { FormAlert } from './Field';

export function AdminForm({
  form,
  className = 'admin-form',
  onSubmit,
  children,
}: {
  form: { alert: string | null };
  className?: string;
  onSubmit: () => unknown;
  children: ReactNode;
}) {
  return (
    <form
      className={className}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void onSubmit();
      }}
    >
      <FormAlert message={form.alert} />
      {children}
    </form>
  );
}
