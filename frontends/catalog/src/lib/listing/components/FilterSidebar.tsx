// The listing sidebar of category and subcategory pages: 'Refined by' with Reset and chips, the
// categories, and the filters. A static left column on large screens; on small ones a drawer that a
// 'Filters' button opens (the CSS in listing.css decides which, by screen width).
import { useT } from '@marque/i18n';
import { keepTabInside } from '@marque/ui';
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useCategories } from '../../api/get-categories';
import { useOemBrands } from '../../api/get-oem-brands';
import { FILTER_KINDS, NO_FILTERS, type ListingFilters } from '../filters';
import { CategoryGroups } from './CategoryGroups';
import { FilterChips } from './FilterChips';
import { FilterGroups } from './FilterGroups';

export function FilterSidebar({
  categorySlug,
  subcategorySlug,
  categoryName,
  filters,
  onChange,
}: {
  categorySlug: string;
  subcategorySlug?: string;
  /** The category's name when the page already knows it; otherwise it is taken from the category list. */
  categoryName?: string;
  filters: ListingFilters;
  onChange: (next: ListingFilters) => void;
}) {
  const t = useT('listing');
  const categories = useCategories();
  const brands = useOemBrands();
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const drawer = useRef<HTMLElement>(null);
  const closer = useRef<HTMLButtonElement>(null);
  const drawerId = useId();
  const headingId = useId();

  const categoryList = categories.status === 'success' ? categories.data : [];
  const brandList = brands.status === 'success' ? brands.data : [];
  const name = categoryName || categoryList.find((category) => category.slug === categorySlug)?.name;
  const active = FILTER_KINDS.reduce((sum, kind) => sum + filters[kind].length, 0);

  const close = useCallback(() => {
    setOpen(false);
    opener.current?.focus();
  }, []);

  useEffect(() => {
    if (!open) return;
    closer.current?.focus();
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') close();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open, close]);

  // While the drawer is open, Tab stays inside it.
  const keepFocusInside = (event: KeyboardEvent<HTMLElement>) => {
    if (open) keepTabInside(drawer.current, event);
  };

  return (
    <>
      <button
        ref={opener}
        type="button"
        className="button filter-drawer-toggle"
        aria-expanded={open}
        aria-controls={drawerId}
        onClick={() => setOpen(true)}
      >
        {t('filters')}
        {active > 0 ? ` (${active})` : null}
      </button>
      {open ? <div className="filter-backdrop" data-testid="filter-backdrop" onClick={close} /> : null}
      <aside
        ref={drawer}
        id={drawerId}
        className={open ? 'filter-sidebar filter-sidebar--open' : 'filter-sidebar'}
        aria-labelledby={headingId}
        role={open ? 'dialog' : undefined}
        aria-modal={open ? true : undefined}
        onKeyDown={keepFocusInside}
      >
        <div className="filter-sidebar__head">
          <h2 id={headingId} className="filter-sidebar__heading">
            {t('refined_by')}
          </h2>
          <button type="button" className="filter-sidebar__reset" onClick={() => onChange(NO_FILTERS)}>
            {t('reset')}
          </button>
          <button
            ref={closer}
            type="button"
            className="filter-sidebar__close"
            aria-label={t('close_filters')}
            onClick={close}
          >
            <span aria-hidden="true">×</span>
          </button>
        </div>
        <FilterChips filters={filters} brands={brandList} onChange={onChange} />
        <CategoryGroups
          categories={categoryList}
          categorySlug={categorySlug}
          subcategorySlug={subcategorySlug}
          onNavigate={() => setOpen(false)}
        />
        {name ? <FilterGroups filters={filters} brands={brandList} onChange={onChange} /> : null}
      </aside>
    </>
  );
}
