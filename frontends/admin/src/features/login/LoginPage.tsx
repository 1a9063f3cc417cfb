// Staff sign-in: email, password and the authenticator's current code; the token goes to `staffToken`.
import { useT } from '@marque/i18n';
import { useLocation } from 'wouter';
import { adminCall } from '../../lib/api/calls';
import { TextField } from '../../lib/form/Field';
import { AdminForm } from '../../lib/form/AdminForm';
import { useForm } from '../../lib/form/use-form';
import { AdminPage } from '../../lib/layout/Page';
import { startStaffSession } from '../../lib/session/staff-session';

export function LoginPage() {
  const t = useT('admin');
  const [, navigate] = useLocation();
  // A refused sign-in (`staff.login_failed`, `staff.too_many_attempts`) names no field on purpose: it goes above the form.
  const form = useForm({ email: '', password: '', totp: '' });
  const { values, set, errors } = form;
  const ready = values.email.trim() !== '' && values.password !== '' && /^\d{6}$/.test(values.totp);
  return (
    <AdminPage title={t('login.title')}>
      <AdminForm
        form={form}
        className="admin-form admin-form--narrow"
        onSubmit={() =>
          form.submit(
            (v) => adminCall('POST /api/admin/login', { body: { email: v.email.trim(), password: v.password, totp: v.totp } }),
            async (body) => {
              await startStaffSession(body.token);
              navigate('/admin');
            },
          )
        }
      >
        <TextField id="login-email" label={t('field.email')} type="email" autoComplete="username" value={values.email} onChange={(v) => set('email', v)} error={errors.email} />
        <TextField id="login-password" label={t('field.password')} type="password" autoComplete="current-password" value={values.password} onChange={(v) => set('password', v)} error={errors.password} />
        <TextField
          id="login-totp"
          label={t('field.totp')}
          hint={t('login.totp_hint')}
          inputMode="numeric"
          autoComplete="one-time-code"
          value={values.totp}
          onChange={(v) => set('totp', v.replace(/\D/g, '').slice(0, 6))}
          error={errors.totp}
        />
        <button type="submit" className="button" disabled={!ready || form.busy}>
          {t('login.submit')}
        </button>
      </AdminForm>
    </AdminPage>
  );
}
