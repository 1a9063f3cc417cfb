// One labelled form field with the domain's message beside it when a save refused it.
import type { ReactNode } from 'react';

export function Field({ id, label, error, hint, children }: { id: string; label: string; error?: string; hint?: string; children: ReactNode }) {
  return (
    <div className={error ? 'admin-field admin-field--invalid' : 'admin-field'}>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint ? <p className="admin-field__hint">{hint}</p> : null}
      {error ? (
        <p id={`${id}-error`} className="admin-field__error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

type InputProps = {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  hint?: string;
  type?: 'text' | 'email' | 'password' | 'number' | 'date' | 'url' | 'search';
  inputMode?: 'numeric' | 'decimal' | 'text';
  autoComplete?: string;
  required?: boolean;
};

/** A text input inside a Field, marked invalid (and described by its message) when the save refused it. */
export function TextField({ id, label, value, onChange, error, hint, type = 'text', inputMode, autoComplete, required }: InputProps) {
  return (
    <Field id={id} label={label} error={error} hint={hint}>
      <input
        id={id}
        type={type}
        inputMode={inputMode}
        autoComplete={autoComplete}
        required={required}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
    </Field>
  );
}

/** A message above a form: a refusal that names no field, or what was saved. */
export function FormAlert({ message, tone = 'error' }: { message: string | null; tone?: 'error' | 'done' }) {
  if (!message) return null;
  return (
    <p className={`admin-alert admin-alert--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {message}
    </p>
  );
}
