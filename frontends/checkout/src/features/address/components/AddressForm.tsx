// The address form: house number, street, landmark, city, state (India's states and union territories),
// mobile, pincode and an optional GSTIN. Each field is checked by the shop's rules as it is typed, and
// again by the server, whose 400 names every bad field.
import type { Address } from '@marque/cart';
import { useT, type Key } from '@marque/i18n';
import { GST_STATES, MESSAGES, validateAddress, type AddressFields, type MessageCode } from '@marque/rules';
import type { FieldError } from '@marque/api-client';
import { useSession } from '@marque/session';
import { useId, useState, type FormEvent } from 'react';
import { ProblemAlert } from '../../../lib/ProblemAlert';
import { problemOfCode, type Problem } from '../../../lib/problem';
import { addAddress, editAddress } from '../api/save-address';

type Field = keyof AddressFields;
const FIELDS: ReadonlyArray<{ name: Field; optional?: boolean; inputMode?: 'numeric' | 'tel'; autoComplete?: string }> = [
  { name: 'houseNo', autoComplete: 'address-line1' },
  { name: 'street', optional: true, autoComplete: 'address-line2' },
  { name: 'landmark', optional: true },
  { name: 'city', autoComplete: 'address-level2' },
  { name: 'state' },
  { name: 'mobileNo', inputMode: 'tel', autoComplete: 'tel-national' },
  { name: 'pincode', inputMode: 'numeric', autoComplete: 'postal-code' },
  { name: 'gstin', optional: true },
];

const EMPTY: AddressFields = { houseNo: '', street: '', landmark: '', city: '', state: '', mobileNo: '', pincode: '', gstin: '' };

function fieldsOf(address: Address | null): AddressFields {
  if (!address) return EMPTY;
  const { houseNo, street, landmark, city, state, mobileNo, pincode, gstin = '' } = address;
  return { houseNo, street, landmark, city, state, mobileNo, pincode, gstin };
}

/** The server's field errors by field; a code the rules know is shown in the visitor's language. */
function serverErrors(errors: FieldError[] = []): Partial<Record<Field, MessageCode | string>> {
  const found: Partial<Record<Field, MessageCode | string>> = {};
  for (const { field, code, message } of errors) {
    if (field in EMPTY) found[field as Field] = Object.hasOwn(MESSAGES, code) ? code : message;
  }
  return found;
}

export function AddressForm({
  editing,
  onSaved,
  onCancel,
}: {
  /** The address being edited, or null for a new one. */
  editing: Address | null;
  onSaved: (saved: { edited: boolean; id?: string }) => void;
  onCancel: () => void;
}) {
  const t = useT('checkout');
  const messages = useT('messages');
  const { user } = useSession();
  const formId = useId();
  const [values, setValues] = useState<AddressFields>(() => fieldsOf(editing));
  const [touched, setTouched] = useState<ReadonlySet<Field>>(new Set());
  const [fromServer, setFromServer] = useState<Partial<Record<Field, string>>>({});
  const [problem, setProblem] = useState<Problem | null>(null);
  const [saving, setSaving] = useState(false);
  const issues = validateAddress(values);

  const errorOf = (field: Field): string | null => {
    const server = fromServer[field];
    if (server) return Object.hasOwn(MESSAGES, server) ? messages(server as MessageCode) : server;
    const issue = touched.has(field) ? issues[field] : undefined;
    return issue ? messages(issue.code) : null;
  };

  const change = (field: Field, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setTouched((seen) => new Set(seen).add(field));
    setFromServer(({ [field]: _dropped, ...rest }) => rest);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!user || saving) return;
    setTouched(new Set(FIELDS.map((f) => f.name)));
    if (Object.keys(issues).length > 0) return;
    setSaving(true);
    setProblem(null);
    const answer = editing ? await editAddress(editing._id, values) : await addAddress(user._id, values);
    setSaving(false);
    if (answer.ok) {
      onSaved({ edited: editing !== null, id: answer.body._id });
      return;
    }
    setFromServer(serverErrors(answer.errors));
    setProblem(answer.errors?.length ? null : problemOfCode(answer.code));
  };

  return (
    <form className="address-form checkout-card" aria-labelledby={`${formId}-title`} noValidate onSubmit={(e) => void submit(e)}>
      <h2 id={`${formId}-title`}>{editing ? t('address.form_edit') : t('address.form_add')}</h2>
      {FIELDS.map(({ name, optional, inputMode, autoComplete }) => {
        const id = `${formId}-${name}`;
        const error = errorOf(name);
        const common = {
          id,
          name,
          value: values[name],
          'aria-invalid': error ? true : undefined,
          'aria-describedby': error ? `${id}-error` : undefined,
          'aria-required': optional ? undefined : true,
        };
        return (
          <div key={name} className="field">
            <label htmlFor={id}>{t(`field.${name}` as Key<'checkout'>)}</label>
            {name === 'state' ? (
              <select {...common} onChange={(e) => change(name, e.target.value)}>
                <option value="">{t('field.state_choose')}</option>
                {GST_STATES.map((state) => (
                  <option key={state.name} value={state.name}>
                    {state.name}
                  </option>
                ))}
              </select>
            ) : (
              <input
                {...common}
                type="text"
                inputMode={inputMode}
                autoComplete={autoComplete}
                onChange={(e) => change(name, e.target.value)}
              />
            )}
            {error ? (
              <p id={`${id}-error`} className="field__issue" role="alert">
                {error}
              </p>
            ) : null}
          </div>
        );
      })}
      <ProblemAlert problem={problem} />
      <div className="address-form__actions">
        <button type="submit" className="button" disabled={saving}>
          {t('address.save')}
        </button>
        <button type="button" className="button button--quiet" onClick={onCancel}>
          {t('address.cancel')}
        </button>
      </div>
    </form>
  );
}
