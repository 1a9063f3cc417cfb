// Catalog imports and the export (roles owner and catalog): upload a CSV file (and, optionally, a zip of the
// photographs its `photos` column names) to check (a dry run) or to apply, then
// follow its job on its own page; download the whole catalog in the import's columns, which imports back unchanged.
import type { FormFields } from '@marque/api-client';
import { useT } from '@marque/i18n';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { adminCall } from '../../lib/api/calls';
import { adminFile, saveFile } from '../../lib/api/pdf';
import { Field, FormAlert } from '../../lib/form/Field';
import { useMessageText } from '../../lib/form/messages';
import { AdminPage } from '../../lib/layout/Page';

type UploadField = keyof FormFields<'POST /api/admin/imports'>;
/** The upload's form fields, as the document names them. */
export const IMPORT_FIELDS: Record<'file' | 'mode' | 'createMissing' | 'photos', UploadField> = {
  file: 'file',
  mode: 'mode',
  createMissing: 'createMissing',
  photos: 'photos',
};

export type ImportMode = 'dry-run' | 'apply';

function Upload() {
  const t = useT('admin');
  const messageText = useMessageText();
  const [, navigate] = useLocation();
  const [file, setFile] = useState<File | null>(null);
  const [photos, setPhotos] = useState<File | null>(null);
  const [mode, setMode] = useState<ImportMode>('dry-run');
  const [createMissing, setCreateMissing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);

  const start = async () => {
    if (!file) return;
    setBusy(true);
    setAlert(null);
    const form = new FormData();
    form.append(IMPORT_FIELDS.file, file);
    form.append(IMPORT_FIELDS.mode, mode);
    if (createMissing) form.append(IMPORT_FIELDS.createMissing, 'true');
    if (photos) form.append(IMPORT_FIELDS.photos, photos);
    try {
      const answer = await adminCall('POST /api/admin/imports', { body: form });
      if (answer.ok) navigate(`/admin/imports/${encodeURIComponent(answer.body.id)}`);
      else setAlert(messageText(answer.code, answer.message));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="admin-panel" aria-labelledby="import-upload">
      <h2 id="import-upload">{t('imports.upload')}</h2>
      <p>{t('imports.upload_text')}</p>
      <p>{t('imports.fits_text')}</p>
      <FormAlert message={alert} />
      <form
        className="admin-form"
        onSubmit={(event) => {
          event.preventDefault();
          void start();
        }}
      >
        <Field id="import-file" label={t('imports.file')} hint={t('imports.file_hint')}>
          <input id="import-file" type="file" accept=".csv,text/csv" onChange={(event) => setFile(event.target.files?.[0] ?? null)} />
        </Field>
        <Field id="import-photos" label={t('imports.photos')} hint={t('imports.photos_hint')}>
          <input
            id="import-photos"
            type="file"
            accept=".zip,application/zip"
            onChange={(event) => setPhotos(event.target.files?.[0] ?? null)}
          />
        </Field>
        <fieldset>
          <legend>{t('imports.mode')}</legend>
          {(['dry-run', 'apply'] as const).map((value) => (
            <label key={value}>
              <input type="radio" name="import-mode" value={value} checked={mode === value} onChange={() => setMode(value)} />{' '}
              {t(value === 'dry-run' ? 'imports.mode_dry_run' : 'imports.mode_apply')}
            </label>
          ))}
        </fieldset>
        <Field id="import-create-missing" label={t('imports.create_missing')} hint={t('imports.create_missing_hint')}>
          <input id="import-create-missing" type="checkbox" checked={createMissing} onChange={(event) => setCreateMissing(event.target.checked)} />
        </Field>
        <button type="submit" className="button" disabled={busy || !file}>
          {t('imports.start')}
        </button>
      </form>
    </section>
  );
}

function Export() {
  const t = useT('admin');
  const [busy, setBusy] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setAlert(null);
    const blob = await adminFile('GET /api/admin/exports/products.csv', {}, 'text/csv');
    setBusy(false);
    if (blob) saveFile(blob, 'marque-products.csv');
    else setAlert(t('error.unavailable'));
  };
  return (
    <section className="admin-panel" aria-labelledby="import-export">
      <h2 id="import-export">{t('imports.export')}</h2>
      <p>{t('imports.export_text')}</p>
      <FormAlert message={alert} />
      <button type="button" className="button button--quiet" disabled={busy} onClick={() => void download()}>
        {t('imports.export_download')}
      </button>
    </section>
  );
}

export function ImportsPage() {
  const t = useT('admin');
  return (
    <AdminPage title={t('imports.title')}>
      <Upload />
      <Export />
    </AdminPage>
  );
}
