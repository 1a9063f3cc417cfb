// The categories as collapsible groups, each listing its subcategories ('others' is never listed).
import type { Category } from '@marque/api-client';
import { useT } from '@marque/i18n';
import { useId, useState } from 'react';
import { Link } from 'wouter';
import { subcategoryHref } from '../links';

/** The catch-all subcategory the sidebar does not offer. */
const HIDDEN_SUBCATEGORY = 'others';

export function CategoryGroups({
  categories,
  categorySlug,
  subcategorySlug,
  onNavigate,
}: {
  categories: readonly Category[];
  categorySlug: string;
  subcategorySlug?: string;
  onNavigate: () => void;
}) {
  const t = useT('listing');
  return (
    <nav className="category-groups" aria-label={t('categories')}>
      <ul>
        {categories.map((category) => (
          <CategoryGroup
            key={category._id}
            category={category}
            current={category.slug === categorySlug}
            subcategorySlug={subcategorySlug}
            onNavigate={onNavigate}
          />
        ))}
      </ul>
    </nav>
  );
}

function CategoryGroup({
  category,
  current,
  subcategorySlug,
  onNavigate,
}: {
  category: Category;
  current: boolean;
  subcategorySlug?: string;
  onNavigate: () => void;
}) {
  // The category being looked at starts open; the others start closed.
  const [expanded, setExpanded] = useState(current);
  const listId = useId();
  const shown = category.subcategory.filter((sub) => sub.slug !== HIDDEN_SUBCATEGORY);
  return (
    <li className="category-group">
      <button
        type="button"
        className="category-group__toggle"
        aria-expanded={expanded}
        aria-controls={listId}
        onClick={() => setExpanded((was) => !was)}
      >
        {category.name}
      </button>
      <ul id={listId} className="category-group__list" hidden={!expanded}>
        {shown.map((sub) => (
          <li key={sub._id}>
            <Link
              href={subcategoryHref(category.slug, sub.slug)}
              aria-current={current && sub.slug === subcategorySlug ? 'page' : undefined}
              onClick={onNavigate}
            >
              {sub.name}
            </Link>
          </li>
        ))}
      </ul>
    </li>
  );
}
