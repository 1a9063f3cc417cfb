// Search by part name or number: submitting opens the first page of results for the term.
import { useT } from '@marque/i18n';
import { searchHref } from '@marque/ui';
import { useEffect, useState } from 'react';
import { useLocation, useSearch } from 'wouter';

export function SearchBox() {
  const t = useT('shell');
  const [path, navigate] = useLocation();
  const query = useSearch();
  // On a results page the box shows the term being looked at.
  const shownTerm = path === '/search' ? (new URLSearchParams(query).get('search') ?? '') : '';
  const [term, setTerm] = useState(shownTerm);
  useEffect(() => setTerm(shownTerm), [shownTerm]);

  return (
    <form
      role="search"
      className="search-box"
      onSubmit={(event) => {
        event.preventDefault();
        navigate(searchHref(term.trim()));
      }}
    >
      <label htmlFor="part-search" className="visually-hidden">
        {t('search.label')}
      </label>
      <input
        id="part-search"
        className="search-box__input"
        type="search"
        name="search"
        placeholder={t('search.placeholder')}
        autoComplete="off"
        enterKeyHint="search"
        value={term}
        onChange={(event) => setTerm(event.target.value)}
      />
      <button type="submit" className="button search-box__submit">
        {t('search.submit')}
      </button>
    </form>
  );
}
