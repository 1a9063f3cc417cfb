// One return: what the customer asked and why, and the shop's next move on the version it was read at (approve or
// refuse with a note; receive; resolve as a refund, a replacement or store credit under one Idempotency-Key, so a
// double click or a retried request never refunds or credits twice).
import { useT } from '@marque/i18n';
import { formatRupees } from '@marque/ui';
import { useState } from 'react';
import { adminCall } from '../../lib/api/calls';
import type { AdminReturn, StaffMe } from '../../lib/api/types';
import { useAnswer } from '../../lib/api/use-answer';
import { Field, FormAlert } from '../../lib/form/Field';
import { AdminForm } from '../../lib/form/AdminForm';
import { useForm } from '../../lib/form/use-form';
import { when } from '../../lib/format';
import { AdminPage } from '../../lib/layout/Page';
import { mayUse } from '../../lib/session/areas';

const OUTCOMES = ['refund', 'replacement', 'storeCredit'] as const;
type Outcome = (typeof OUTCOMES)[number];

function newKey(): string {
  return `return-${crypto.randomUUID()}`;
}

function Decide({ r, onSaved }: { r: AdminReturn; onSaved: (r: AdminReturn) => void }) {
  const t = useT('admin');
  const form = useForm({ note: '' }, { 'return.note_invalid': 'note' });
  const send = (approve: boolean) =>
    form.submit(
      (v) =>
        adminCall(approve ? 'POST /api/admin/returns/{id}/approve' : 'POST /api/admin/returns/{id}/refuse', {
          path: { id: r._id },
          headers: { 'If-Match': String(r.version) },
          body: { note: v.note.trim() || undefined },
        }),
      onSaved,
    );
  return (
    <section className="admin-panel" aria-labelledby="return-decide">
      <h2 id="return-decide">{t('returns.decide')}</h2>
      <AdminForm form={form} onSubmit={() => send(false)}>
        <Field id="return-note" label={t('returns.note')} error={form.errors.note} hint={t('returns.note_hint')}>
          <textarea id="return-note" rows={4} maxLength={1000} value={form.values.note} onChange={(e) => form.set('note', e.target.value)} />
        </Field>
        <button type="button" className="button" disabled={form.busy} onClick={() => void send(true)}>
          {t('returns.approve')}
        </button>
        <button type="submit" className="button button--quiet" disabled={form.busy}>
          {t('returns.refuse')}
        </button>
      </AdminForm>
    </section>
  );
}

function Receive({ r, onSaved }: { r: AdminReturn; onSaved: (r: AdminReturn) => void }) {
  const t = useT('admin');
  const form = useForm({});
  return (
    <section className="admin-panel" aria-labelledby="return-receive">
      <h2 id="return-receive">{t('returns.receive')}</h2>
      <AdminForm
        form={form}
        onSubmit={() =>
          form.submit(() => adminCall('POST /api/admin/returns/{id}/receive', { path: { id: r._id }, headers: { 'If-Match': String(r.version) } }), onSaved)
        }
      >
        <button type="submit" className="button" disabled={form.busy}>
          {t('returns.receive')}
        </button>
      </AdminForm>
    </section>
  );
}

function Resolve({ r, me, onSaved }: { r: AdminReturn; me: StaffMe; onSaved: (r: AdminReturn) => void }) {
  const t = useT('admin');
  // A refund or store credit follows the refunds' role.
  const allowed = OUTCOMES.filter((o) => o === 'replacement' || mayUse(me, 'refunds'));
  const form = useForm<{ outcome: Outcome; restock: boolean; note: string }>(
    { outcome: allowed[0] ?? 'replacement', restock: true, note: '' },
    { 'return.note_invalid': 'note' },
  );
  const [key, setKey] = useState(newKey);
  return (
    <section className="admin-panel" aria-labelledby="return-resolve">
      <h2 id="return-resolve">{t('returns.inspect')}</h2>
      <AdminForm
        form={form}
        onSubmit={() =>
          form.submit(
            (v) =>
              adminCall('POST /api/admin/returns/{id}/resolve', {
                path: { id: r._id },
                headers: { 'If-Match': String(r.version), 'Idempotency-Key': key },
                body: { outcome: v.outcome, restock: v.restock, note: v.note.trim() || undefined },
              }),
            (saved) => {
              setKey(newKey());
              onSaved(saved);
            },
          )
        }
      >
        <Field id="return-outcome" label={t('returns.outcome')}>
          <select id="return-outcome" value={form.values.outcome} onChange={(e) => form.set('outcome', e.target.value as Outcome)}>
            {allowed.map((o) => (
              <option key={o} value={o}>
                {t(`returns.outcome_${o}`)}
              </option>
            ))}
          </select>
        </Field>
        <label>
          <input type="checkbox" checked={form.values.restock} onChange={(e) => form.set('restock', e.target.checked)} /> {t('returns.restock')}
        </label>
        <Field id="return-resolution-note" label={t('returns.note')} error={form.errors.note}>
          <textarea id="return-resolution-note" rows={3} maxLength={1000} value={form.values.note} onChange={(e) => form.set('note', e.target.value)} />
        </Field>
        <button type="submit" className="button" disabled={form.busy}>
          {t('returns.resolve')}
        </button>
      </AdminForm>
    </section>
  );
}

export function ReturnPage({ id, me }: { id: string; me: StaffMe }) {
  const t = useT('admin');
  const { state, setState } = useAnswer('GET /api/admin/returns/{id}', { path: { id } });
  if (state.status === 'loading') return <div className="admin-waiting" aria-busy="true" />;
  if (state.status === 'failed') return <FormAlert message={state.message} />;
  const r = state.body;
  const saved = (body: AdminReturn) => setState({ status: 'done', body });
  return (
    <AdminPage title={`${r.orderNumber} · ${r.productName}`}>
      <dl className="admin-facts">
        <dt>{t('returns.state')}</dt>
        <dd>{t(`returns.state_${r.state}` as 'returns.state_requested')}</dd>
        <dt>{t('returns.quantity')}</dt>
        <dd>{r.quantity}</dd>
        <dt>{t('returns.asked')}</dt>
        <dd>{when(r.createdAt)}</dd>
        <dt>{t('returns.window_closes')}</dt>
        <dd>{when(r.windowClosesAt)}</dd>
        <dt>{t('returns.photos')}</dt>
        <dd>{r.photos}</dd>
        {r.outcome ? (
          <>
            <dt>{t('returns.outcome')}</dt>
            <dd>
              {t(`returns.outcome_${r.outcome}` as 'returns.outcome_refund')}
              {r.amount !== undefined && r.amount !== null ? ` · ${formatRupees(r.amount)}` : ''}
            </dd>
          </>
        ) : null}
        {r.handledBy ? (
          <>
            <dt>{t('returns.handled_by')}</dt>
            <dd>{r.handledBy}</dd>
          </>
        ) : null}
      </dl>
      <section className="admin-panel" aria-labelledby="return-reason">
        <h2 id="return-reason">{t('returns.reason')}</h2>
        <p className="admin-pre">{r.reason}</p>
        {r.note ? <p className="admin-pre">{r.note}</p> : null}
        {r.resolutionNote ? <p className="admin-pre">{r.resolutionNote}</p> : null}
      </section>
      {r.state === 'requested' ? <Decide r={r} onSaved={saved} /> : null}
      {r.state === 'approved' ? <Receive r={r} onSaved={saved} /> : null}
      {r.state === 'received' ? <Resolve r={r} me={me} onSaved={saved} /> : null}
    </AdminPage>
  );
}
