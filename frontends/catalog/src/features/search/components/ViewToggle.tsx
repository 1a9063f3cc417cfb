// Grid or list: two pressed/unpressed buttons; listing.css shows them on large screens only.
import { useT } from '@marque/i18n';
import type { ListView } from '../hooks/use-list-view';

export function ViewToggle({ view, onChange }: { view: ListView; onChange: (view: ListView) => void }) {
  const t = useT('listing');
  return (
    <div className="view-toggle" role="group" aria-label={t('layout')}>
      <button
        type="button"
        className="view-toggle__button view-toggle__button--grid"
        aria-pressed={view === 'grid'}
        onClick={() => onChange('grid')}
      >
        {t('grid_view')}
      </button>
      <button
        type="button"
        className="view-toggle__button view-toggle__button--list"
        aria-pressed={view === 'list'}
        onClick={() => onChange('list')}
      >
        {t('list_view')}
      </button>
    </div>
  );
}
