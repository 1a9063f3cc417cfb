// A category's, subcategory's or brand's name and slug (web address). On a new record the slug follows the name
// (`Brake Discs` → `brake-discs`) for as long as it is the one the name proposes; staff may write their own, and
// the server judges it.
import { useT } from '@marque/i18n';
import { slugOf } from '../slug';
import { TextField } from './Field';

type Props = {
  idPrefix: string;
  values: { name: string; slug: string };
  errors: { name?: string; slug?: string };
  set: (field: 'name' | 'slug', value: string) => void;
  /** A new record: propose the slug from the name. */
  proposeSlug: boolean;
};

export function NameSlugFields({ idPrefix, values, errors, set, proposeSlug }: Props) {
  const t = useT('admin');
  return (
    <>
      <TextField
        id={`${idPrefix}-name`}
        label={t('field.name')}
        value={values.name}
        onChange={(name) => {
          if (proposeSlug && values.slug === slugOf(values.name)) set('slug', slugOf(name));
          set('name', name);
        }}
        error={errors.name}
      />
      <TextField id={`${idPrefix}-slug`} label={t('field.slug')} value={values.slug} onChange={(slug) => set('slug', slug)} error={errors.slug} />
    </>
  );
}
