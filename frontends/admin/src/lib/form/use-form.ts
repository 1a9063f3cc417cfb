// A back-office form's state: what was typed (never reset by a failed save), the field a refusal belongs to with
// the domain's message beside it, or a message above the form when it names no field.
import type { Outcome } from '@marque/session';
import { useCallback, useState } from 'react';
import { useMessageText } from './messages';

/** Which field a refusal's code is about, e.g. `{ 'product.sku_taken': 'sku' }`; codes not listed go above the form. */
export type FieldCodes<T> = Record<string, keyof T & string>;

/** The field a code names: listed, or the code's last part naming a field (`catalog.warranty_days` → `warrantyDays`). */
export function fieldOfCode<T extends object>(code: string | undefined, values: T, codes: FieldCodes<T>): (keyof T & string) | undefined {
  if (!code) return undefined;
  if (codes[code]) return codes[code];
  const tail = code.slice(code.lastIndexOf('.') + 1).replace(/_(invalid|taken|missing|required|rule|range)$/, '');
  const camel = tail.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());
  return ([tail, camel] as string[]).find((name): name is keyof T & string => Object.hasOwn(values, name));
}

export function useForm<T extends object>(initial: T, codes: FieldCodes<T> = {}) {
  const [values, setValues] = useState<T>(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof T & string, string>>>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const messageText = useMessageText();

  const set = useCallback(<K extends keyof T & string>(field: K, value: T[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => (current[field] ? { ...current, [field]: undefined } : current));
  }, []);

  /** Runs the save; a refusal is shown beside its field (or above the form) and every typed value stays. */
  const submit = useCallback(
    async <A>(save: (values: T) => Promise<Outcome<A>>, onSaved?: (body: A) => void) => {
      setBusy(true);
      setAlert(null);
      setErrors({});
      try {
        const answer = await save(values);
        if (answer.ok) {
          onSaved?.(answer.body);
          return true;
        }
        const text = messageText(answer.code, answer.message);
        const fieldErrors: Partial<Record<keyof T & string, string>> = {};
        for (const error of answer.errors ?? []) {
          const field = Object.hasOwn(values, error.field)
            ? (error.field as keyof T & string)
            : fieldOfCode(error.code, values, codes);
          if (field) fieldErrors[field] = messageText(error.code, error.message);
        }
        const field = fieldOfCode(answer.code, values, codes);
        if (field && !fieldErrors[field]) fieldErrors[field] = text;
        setErrors(fieldErrors);
        if (Object.keys(fieldErrors).length === 0) setAlert(text);
        return false;
      } finally {
        setBusy(false);
      }
    },
    [values, codes, messageText],
  );

  return { values, set, setValues, errors, alert, setAlert, busy, submit };
}
