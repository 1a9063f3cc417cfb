// The grievance form of the contact page: a ticket for the Grievance Officer, its number shown at once
// (the acknowledgement goes by email). Loaded only on the contact page, apart from the shell's bundle.
import { useT, type Key } from '@marque/i18n';
import { useState, type FormEvent } from 'react';
import { submitGrievance, type GrievanceFields } from './submit-grievance';

type Field = 'name' | 'email' | 'mobile' | 'orderNumber' | 'message';
const EMPTY: Record<Field, string> = { name: '', email: '', mobile: '', orderNumber: '', message: '' };
/** The server's limit on the message, mirrored so the field stops there. */
const MESSAGE_MAX = 2000;

export function GrievanceForm() {
  const t = useT('shell');
  const messages = useT('messages');
  const [fields, setFields] = useState(EMPTY);
  const [issues, setIssues] = useState<Partial<Record<Field, string>>>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [number, setNumber] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  /** The shop's text for a code the server answered, in the visitor's language. */
  const say = (code: string | undefined) => {
    const text = code ? messages(code as Key<'messages'>) : undefined;
    return text && text !== code ? text : messages('common.unknown');
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setAlert(null);
    const body: GrievanceFields = { ...fields, orderNumber: fields.orderNumber.trim() || undefined };
    const answer = await submitGrievance(body);
    setBusy(false);
    if (answer.ok) {
      setNumber(answer.body.number);
      setFields(EMPTY);
      setIssues({});
      return;
    }
    const found: Partial<Record<Field, string>> = {};
    for (const issue of answer.errors ?? []) found[issue.field as Field] = say(issue.code);
    setIssues(found);
    if (!answer.errors?.length) setAlert(say(answer.code));
  };

  const input = (field: Field, label: string, props: { type?: string; autoComplete?: string; inputMode?: 'tel' } = {}) => (
    <div className="field">
      <label htmlFor={`grievance-${field}`}>{label}</label>
      <input
        id={`grievance-${field}`}
        {...props}
        value={fields[field]}
        aria-invalid={issues[field] ? true : undefined}
        aria-describedby={issues[field] ? `grievance-${field}-issue` : undefined}
        onChange={(e) => setFields({ ...fields, [field]: e.target.value })}
      />
      {issues[field] ? (
        <p id={`grievance-${field}-issue`} className="field__issue">
          {issues[field]}
        </p>
      ) : null}
    </div>
  );

  return (
    <section aria-labelledby="grievance-form" className="grievance-form">
      <h2 id="grievance-form">{t('grievance_form.heading')}</h2>
      <p>{t('grievance_form.intro')}</p>
      {number ? (
        <p role="status" className="grievance-form__done">
          {messages('grievance.received')} {t('grievance_form.number', { number })}
        </p>
      ) : null}
      {alert ? <p role="alert">{alert}</p> : null}
      <form onSubmit={submit} noValidate>
        {input('name', t('grievance_form.name'), { autoComplete: 'name' })}
        {input('email', t('grievance_form.email'), { type: 'email', autoComplete: 'email' })}
        {input('mobile', t('grievance_form.mobile'), { type: 'tel', autoComplete: 'tel-national', inputMode: 'tel' })}
        {input('orderNumber', t('grievance_form.order_number'))}
        <div className="field">
          <label htmlFor="grievance-message">{t('grievance_form.message')}</label>
          <textarea
            id="grievance-message"
            rows={5}
            maxLength={MESSAGE_MAX}
            value={fields.message}
            aria-invalid={issues.message ? true : undefined}
            aria-describedby={issues.message ? 'grievance-message-issue' : undefined}
            onChange={(e) => setFields({ ...fields, message: e.target.value })}
          />
          {issues.message ? (
            <p id="grievance-message-issue" className="field__issue">
              {issues.message}
            </p>
          ) : null}
        </div>
        <button type="submit" className="button" disabled={busy}>
          {t('grievance_form.submit')}
        </button>
      </form>
    </section>
  );
}
