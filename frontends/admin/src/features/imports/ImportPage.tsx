// One import job: its progress while the server's worker goes through the file (read again every second until it
// ends), its counts, a way to stop it, and its refused rows, shown here and downloadable as `errors.csv`.
import { useT } from '@marque/i18n';
import Papa from 'papaparse';
import { Fragment, useEffect, useState } from 'react';
import { Link } from 'wouter';
import { adminCall } from '../../lib/api/calls';
import { adminFile, saveFile } from '../../lib/api/pdf';
import type { AdminImport } from '../../lib/api/types';
import { useAnswer } from '../../lib/api/use-answer';
import { FormAlert } from '../../lib/form/Field';
import { useMessageText } from '../../lib/form/messages';
import { when } from '../../lib/format';
import { AdminPage } from '../../lib/layout/Page';

/** How often a running job is read again, in milliseconds. */
export const POLL_MS = 1000;
/** Refused rows shown on the page; the file holds them all. */
export const ERRORS_SHOWN = 200;

/** Photographs not yet attached or failed: the worker takes them up after the rows. */
export const photosPending = (job: AdminImport) => Math.max(0, job.photosTotal - job.photosDone - job.photosFailed);

const running = (job: AdminImport) => job.state === 'queued' || job.state === 'running' || photosPending(job) > 0;

/** Characters of a refused value shown in the table (a cell may hold a megabyte; the file keeps it whole). */
export const VALUE_SHOWN = 120;
const shortened = (value: string) => (value.length > VALUE_SHOWN ? `${value.slice(0, VALUE_SHOWN)}…` : value);

/** One refused cell of `errors.csv`. */
export type RefusedCell = { line: string; column: string; value: string; code: string; message: string };

/** The rows of an `errors.csv` file (its header names the columns). */
export function readErrors(text: string): RefusedCell[] {
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true });
  return parsed.data.map((row) => ({
    line: row.line ?? '',
    column: row.column ?? '',
    value: row.value ?? '',
    code: row.code ?? '',
    message: row.message ?? '',
  }));
}

function Refused({ job }: { job: AdminImport }) {
  const t = useT('admin');
  const messageText = useMessageText();
  const [cells, setCells] = useState<RefusedCell[] | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const errorsFile = () => adminFile('GET /api/admin/imports/{id}/errors.csv', { path: { id: job.id } }, 'text/csv');
  useEffect(() => {
    let live = true;
    void errorsFile().then(async (blob) => {
      if (!live) return;
      if (blob) setCells(readErrors(await blob.text()));
      else setAlert(t('error.unavailable'));
    });
    return () => {
      live = false;
    };
    // The report is read once the job has ended; it does not change after.
  }, [job.id]);
  const download = async () => {
    const blob = await errorsFile();
    if (blob) saveFile(blob, `import-${job.id}-errors.csv`);
    else setAlert(t('error.unavailable'));
  };
  return (
    <section className="admin-panel" aria-labelledby="import-refused">
      <h2 id="import-refused">{t('imports.refused_title', { n: job.rejected + job.photosFailed })}</h2>
      <FormAlert message={alert} />
      <button type="button" className="button button--quiet" onClick={() => void download()}>
        {t('imports.errors_download')}
      </button>
      {cells ? (
        <div className="admin-table">
          <table>
            <caption className="visually-hidden">{t('imports.refused_title', { n: job.rejected + job.photosFailed })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('imports.line')}</th>
                <th scope="col">{t('imports.column')}</th>
                <th scope="col">{t('imports.value')}</th>
                <th scope="col">{t('imports.reason')}</th>
              </tr>
            </thead>
            <tbody>
              {cells.slice(0, ERRORS_SHOWN).map((cell, index) => (
                <tr key={`${cell.line}-${cell.column}-${index}`}>
                  <td>{cell.line}</td>
                  <td>{cell.column}</td>
                  <td>{shortened(cell.value)}</td>
                  <td>{messageText(cell.code, cell.message)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {cells.length > ERRORS_SHOWN ? <p>{t('imports.errors_more', { n: cells.length - ERRORS_SHOWN })}</p> : null}
        </div>
      ) : null}
    </section>
  );
}

function Progress({ job }: { job: AdminImport }) {
  const t = useT('admin');
  return (
    <div className="admin-progress">
      {job.rowsTotal > 0 ? (
        <progress max={job.rowsTotal} value={job.rowsRead} aria-label={t('imports.progress')} />
      ) : (
        <progress aria-label={t('imports.progress')} />
      )}
      <p role="status">
        {t(`imports.state_${job.state}` as 'imports.state_done')}
        {job.rowsTotal > 0 ? ` · ${t('imports.rows_of', { read: job.rowsRead, total: job.rowsTotal })}` : null}
        {job.rowsPerSecond !== undefined ? ` · ${t('imports.rate', { n: job.rowsPerSecond })}` : null}
        {job.secondsLeft !== undefined ? ` · ${t('imports.seconds_left', { n: job.secondsLeft })}` : null}
      </p>
      {job.photosTotal > 0 ? (
        <>
          <progress max={job.photosTotal} value={job.photosDone + job.photosFailed} aria-label={t('imports.photos_progress')} />
          <p role="status">
            {t('imports.photos_of', { done: job.photosDone, total: job.photosTotal })}
            {job.photosFailed > 0 ? ` · ${t('imports.photos_failed', { n: job.photosFailed })}` : null}
            {job.photosPerSecond !== undefined ? ` · ${t('imports.photos_rate', { n: job.photosPerSecond })}` : null}
          </p>
        </>
      ) : null}
    </div>
  );
}

export function ImportPage({ id }: { id: string }) {
  const t = useT('admin');
  const messageText = useMessageText();
  const { state, setState, reload } = useAnswer('GET /api/admin/imports/{id}', { path: { id } });
  const [alert, setAlert] = useState<string | null>(null);
  const job = state.status === 'done' ? state.body : null;
  const going = job !== null && running(job);
  useEffect(() => {
    if (!going) return;
    const timer = setTimeout(reload, POLL_MS);
    return () => clearTimeout(timer);
  }, [going, job?.rowsRead, job?.state, job?.photosDone, job?.photosFailed]);

  if (state.status === 'loading') return <div className="admin-waiting" aria-busy="true" />;
  if (state.status === 'failed') return <FormAlert message={messageText(state.code, state.message)} />;
  const body = state.body;
  const cancel = async () => {
    setAlert(null);
    const answer = await adminCall('POST /api/admin/imports/{id}/cancel', { path: { id } });
    if (answer.ok) setState({ status: 'done', body: answer.body });
    else setAlert(messageText(answer.code, answer.message));
  };
  const counts: [string, number][] = [
    [t('imports.accepted'), body.accepted],
    [t('imports.rejected'), body.rejected],
    [t('imports.created'), body.created],
    [t('imports.updated'), body.updated],
    [t('imports.unchanged'), body.unchanged],
  ];
  return (
    <AdminPage
      title={t(body.mode === 'apply' ? 'imports.job_apply' : 'imports.job_dry_run', { file: body.fileName })}
      actions={
        going ? (
          <button type="button" className="button button--quiet" onClick={() => void cancel()}>
            {t('imports.cancel')}
          </button>
        ) : (
          <Link href="/admin/imports" className="button button--quiet">
            {t('imports.another')}
          </Link>
        )
      }
    >
      <FormAlert message={alert} />
      <Progress job={body} />
      {body.failure ? <FormAlert message={messageText(body.failure, body.failure)} /> : null}
      {body.state === 'done' && body.mode === 'dry-run' ? (
        <p>{t(body.rejected === 0 ? 'imports.dry_run_clean' : 'imports.dry_run_refused')}</p>
      ) : null}
      {body.state === 'done' && body.mode === 'apply' && body.created + body.updated === 0 && body.rejected === 0 ? (
        <p>{t('imports.nothing_changed')}</p>
      ) : null}
      <dl className="admin-facts">
        {counts.map(([label, n]) => (
          <Fragment key={label}>
            <dt>{label}</dt>
            <dd>{n}</dd>
          </Fragment>
        ))}
        <dt>{t('imports.uploaded')}</dt>
        <dd>{when(body.createdAt)}</dd>
        {body.finishedAt ? (
          <>
            <dt>{t('imports.finished')}</dt>
            <dd>{when(body.finishedAt)}</dd>
          </>
        ) : null}
      </dl>
      {!going && body.rejected + body.photosFailed > 0 ? <Refused job={body} /> : null}
    </AdminPage>
  );
}
