// The set-up link's page (`/admin/setup?code=…`): choose a password (12–128 characters), then enrol the
// authenticator from the QR code or by typing the secret.
import { useT } from '@marque/i18n';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'wouter';
import { adminCall } from '../../lib/api/calls';
import { TextField } from '../../lib/form/Field';
import { AdminForm } from '../../lib/form/AdminForm';
import { useForm } from '../../lib/form/use-form';
import { AdminPage } from '../../lib/layout/Page';
import { useQuery } from '../../lib/table/use-list';

const QrCode = lazy(() => import(/* webpackChunkName: "admin-qr" */ './QrCode'));

export const STAFF_PASSWORD_MIN = 12;
export const STAFF_PASSWORD_MAX = 128;

export function SetupPage() {
  const t = useT('admin');
  const office = useT('office');
  const code = useQuery().code ?? '';
  const [enrolled, setEnrolled] = useState<{ uri: string; secret: string } | null>(null);
  const form = useForm({ password: '', repeat: '' }, { 'staff.password_rule': 'password' });
  const { values, set, errors } = form;
  const length = [...values.password].length;
  const tooShortOrLong = values.password !== '' && (length < STAFF_PASSWORD_MIN || length > STAFF_PASSWORD_MAX);
  const mismatch = values.repeat !== '' && values.repeat !== values.password;

  if (!code) {
    return (
      <AdminPage title={t('setup.title')}>
        <p role="alert">{t('setup.no_code')}</p>
      </AdminPage>
    );
  }
  if (enrolled) {
    return (
      <AdminPage title={t('setup.enrol_title')}>
        <p>{t('setup.enrol_text')}</p>
        <Suspense fallback={<div className="admin-qr" />}>
          <QrCode value={enrolled.uri} label={t('setup.qr_label')} />
        </Suspense>
        <p>{t('setup.secret_text')}</p>
        <p>
          <code className="admin-secret">{enrolled.secret}</code>
        </p>
        <Link href="/admin/login" className="button">
          {t('setup.to_login')}
        </Link>
      </AdminPage>
    );
  }
  return (
    <AdminPage title={t('setup.title')}>
      <p>{t('setup.text')}</p>
      <AdminForm
        form={form}
        className="admin-form admin-form--narrow"
        onSubmit={() =>
          form.submit(
            (v) => adminCall('POST /api/admin/setup', { body: { code, password: v.password } }),
            (body) => setEnrolled({ uri: body.totpUri, secret: body.secret }),
          )
        }
      >
        <TextField
          id="setup-password"
          label={t('field.new_password')}
          type="password"
          autoComplete="new-password"
          value={values.password}
          onChange={(v) => set('password', v)}
          error={errors.password ?? (tooShortOrLong ? office('staff.password_rule') : undefined)}
        />
        <TextField
          id="setup-repeat"
          label={t('field.repeat_password')}
          type="password"
          autoComplete="new-password"
          value={values.repeat}
          onChange={(v) => set('repeat', v)}
          error={mismatch ? t('setup.mismatch') : undefined}
        />
        <button type="submit" className="button" disabled={form.busy || length < STAFF_PASSWORD_MIN || tooShortOrLong || values.repeat !== values.password}>
          {t('setup.submit')}
        </button>
      </AdminForm>
    </AdminPage>
  );
}
