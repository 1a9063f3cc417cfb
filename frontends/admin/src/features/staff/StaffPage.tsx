// The shop's staff (owners only): invite someone with a role and hand them the set-up link the server answers;
// see everyone; remove someone (never oneself).
import { useT } from '@marque/i18n';
import { useState } from 'react';
import { adminCall } from '../../lib/api/calls';
import type { StaffMe, StaffView } from '../../lib/api/types';
import { Field, FormAlert, TextField } from '../../lib/form/Field';
import { useMessageText } from '../../lib/form/messages';
import { AdminForm } from '../../lib/form/AdminForm';
import { useForm } from '../../lib/form/use-form';
import { AdminPage } from '../../lib/layout/Page';
import { DataTable, type Column } from '../../lib/table/DataTable';
import { useList } from '../../lib/table/use-list';
import { when } from '../../lib/format';

export const ROLES = ['owner', 'catalog', 'fulfilment'] as const;

/** The set-up link as staff open it: the server's, made absolute on this shop's address when it is a path. */
export function setupLinkOf(link: string): string {
  return link.startsWith('/') ? `${location.origin}${link}` : link;
}

export function StaffPage({ me }: { me: StaffMe }) {
  const t = useT('admin');
  const messageText = useMessageText();
  const list = useList('GET /api/admin/staff', { size: 100 });
  const form = useForm({ email: '', name: '', role: 'catalog' }, { 'staff.role_unknown': 'role', 'staff.email_taken': 'email', 'email.invalid': 'email', 'staff.name_required': 'name' });
  const [link, setLink] = useState<string | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const { values, set, errors } = form;

  const remove = async (member: StaffView) => {
    if (!window.confirm(t('staff.remove_confirm', { name: member.name || member.email }))) return;
    const answer = await adminCall('DELETE /api/admin/staff/{id}', { path: { id: member._id } });
    if (answer.ok) list.reload();
    else setAlert(messageText(answer.code, answer.message));
  };

  const columns: Column<StaffView>[] = [
    { key: 'name', label: t('field.name'), cell: (m) => m.name },
    { key: 'email', label: t('field.email'), cell: (m) => m.email },
    { key: 'role', label: t('field.role'), cell: (m) => t(`role.${m.role}` as 'role.owner') },
    { key: 'status', label: t('staff.status'), cell: (m) => t(`staff.status.${m.status}` as 'staff.status.active') },
    { key: 'since', label: t('staff.since'), cell: (m) => when(m.createdAt) },
    {
      key: 'remove',
      label: t('staff.remove'),
      cell: (m) =>
        m._id === me._id ? null : (
          <button type="button" className="button button--quiet" onClick={() => void remove(m)}>
            {t('staff.remove')}
          </button>
        ),
    },
  ];

  return (
    <AdminPage title={t('nav.staff')}>
      <h2>{t('staff.invite')}</h2>
      <AdminForm
        form={form}
        className="admin-form admin-form--inline"
        onSubmit={() => {
          setLink(null);
          return form.submit(
            (v) => adminCall('POST /api/admin/staff', { body: { email: v.email.trim(), name: v.name.trim(), role: v.role } }),
            (body) => {
              setLink(setupLinkOf(body.setupLink));
              form.setValues({ email: '', name: '', role: values.role });
              list.reload();
            },
          );
        }}
      >
        <TextField id="invite-name" label={t('field.name')} value={values.name} onChange={(v) => set('name', v)} error={errors.name} />
        <TextField id="invite-email" label={t('field.email')} type="email" value={values.email} onChange={(v) => set('email', v)} error={errors.email} />
        <Field id="invite-role" label={t('field.role')} error={errors.role}>
          <select id="invite-role" value={values.role} onChange={(e) => set('role', e.target.value)}>
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {t(`role.${role}`)}
              </option>
            ))}
          </select>
        </Field>
        <button type="submit" className="button" disabled={form.busy || !values.email.trim() || !values.name.trim()}>
          {t('staff.invite_button')}
        </button>
      </AdminForm>
      {link ? (
        <div className="admin-panel" role="status">
          <p>{t('staff.link_text')}</p>
          <p>
            <code className="admin-secret">{link}</code>
          </p>
        </div>
      ) : null}
      <FormAlert message={alert} />
      <DataTable label={t('nav.staff')} columns={columns} rowKey={(m) => m._id} search={false} {...list} />
    </AdminPage>
  );
}
