// One grievance: what the complainant wrote, its clocks, and the officer's next move (acknowledge with an optional
// note, or resolve with the reply the complainant is emailed), sent with the version it was read at so a move made
// meanwhile by someone else is refused, not overwritten.
import { useT } from '@marque/i18n';
import { adminCall } from '../../lib/api/calls';
import type { AdminGrievance } from '../../lib/api/types';
import { useAnswer } from '../../lib/api/use-answer';
import { Field, FormAlert } from '../../lib/form/Field';
import { AdminForm } from '../../lib/form/AdminForm';
import { useForm } from '../../lib/form/use-form';
import { when } from '../../lib/format';
import { AdminPage } from '../../lib/layout/Page';

function Move({ ticket, onSaved }: { ticket: AdminGrievance; onSaved: (t: AdminGrievance) => void }) {
  const t = useT('admin');
  const form = useForm({ note: '' }, { 'grievance.note_invalid': 'note' });
  if (ticket.state === 'resolved') return null;
  const send = (action: 'acknowledge' | 'resolve') =>
    form.submit(
      (v) =>
        adminCall('PATCH /api/admin/grievances/{id}', {
          path: { id: ticket._id },
          headers: { 'If-Match': String(ticket.version) },
          body: { action, note: v.note.trim() || undefined },
        }),
      (saved) => {
        form.set('note', '');
        onSaved(saved);
      },
    );
  return (
    <section className="admin-panel" aria-labelledby="grievance-move">
      <h2 id="grievance-move">{t('grievances.answer')}</h2>
      <AdminForm form={form} onSubmit={() => send('resolve')}>
        <Field id="grievance-note" label={t('grievances.note')} error={form.errors.note} hint={t('grievances.note_hint')}>
          <textarea id="grievance-note" rows={5} maxLength={2000} value={form.values.note} onChange={(e) => form.set('note', e.target.value)} />
        </Field>
        {ticket.state === 'open' ? (
          <button type="button" className="button button--quiet" disabled={form.busy} onClick={() => void send('acknowledge')}>
            {t('grievances.acknowledge')}
          </button>
        ) : null}
        <button type="submit" className="button" disabled={form.busy}>
          {t('grievances.resolve')}
        </button>
      </AdminForm>
    </section>
  );
}

export function GrievancePage({ id }: { id: string }) {
  const t = useT('admin');
  const { state, setState } = useAnswer('GET /api/admin/grievances/{id}', { path: { id } });
  if (state.status === 'loading') return <div className="admin-waiting" aria-busy="true" />;
  if (state.status === 'failed') return <FormAlert message={state.message} />;
  const g = state.body;
  const clock = (at: string, overdue: boolean) => (
    <>
      {when(at)} {overdue ? <strong className="admin-overdue">{t('grievances.overdue')}</strong> : null}
    </>
  );
  return (
    <AdminPage title={g.number}>
      <dl className="admin-facts">
        <dt>{t('grievances.state')}</dt>
        <dd>{t(`grievances.state_${g.state}` as 'grievances.state_open')}</dd>
        <dt>{t('grievances.from')}</dt>
        <dd>
          {g.name} · {g.email} · {g.mobile}
        </dd>
        {g.orderNumber ? (
          <>
            <dt>{t('grievances.order')}</dt>
            <dd>{g.orderNumber}</dd>
          </>
        ) : null}
        <dt>{t('grievances.received')}</dt>
        <dd>{when(g.createdAt)}</dd>
        <dt>{t('grievances.acknowledge_by')}</dt>
        <dd>{g.acknowledgedAt ? when(g.acknowledgedAt) : clock(g.acknowledgeBy, g.acknowledgeOverdue)}</dd>
        <dt>{t('grievances.resolve_by')}</dt>
        <dd>{g.resolvedAt ? when(g.resolvedAt) : clock(g.resolveBy, g.resolveOverdue)}</dd>
        {g.handledBy ? (
          <>
            <dt>{t('grievances.handled_by')}</dt>
            <dd>{g.handledBy}</dd>
          </>
        ) : null}
      </dl>
      <section className="admin-panel" aria-labelledby="grievance-message">
        <h2 id="grievance-message">{t('grievances.message')}</h2>
        <p className="admin-pre">{g.message}</p>
        {g.acknowledgement ? (
          <>
            <h3>{t('grievances.acknowledgement')}</h3>
            <p className="admin-pre">{g.acknowledgement}</p>
          </>
        ) : null}
        {g.resolution ? (
          <>
            <h3>{t('grievances.resolution')}</h3>
            <p className="admin-pre">{g.resolution}</p>
          </>
        ) : null}
      </section>
      <Move ticket={g} onSaved={(saved) => setState({ status: 'done', body: saved })} />
    </AdminPage>
  );
}
