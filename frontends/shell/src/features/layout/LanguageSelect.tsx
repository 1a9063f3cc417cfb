// The language selector: every text switches at once, without a reload; @marque/i18n remembers the choice, and the
// account of a signed-in customer keeps it for the notices about their orders (`PUT /api/account/language`).
import { LANGUAGES, setLanguage, useLanguage, useT, type Language } from '@marque/i18n';
import { authorizedFetch, getSession, jsonBody } from '@marque/session';

function keepWithAccount(language: Language): void {
  const { token } = getSession();
  if (!token) return;
  authorizedFetch('/api/account/language', jsonBody('PUT /api/account/language', { language }), token).catch(
    (error: unknown) => console.error('[marque] the language could not be kept with the account', error),
  );
}

export function LanguageSelect() {
  const t = useT('shell');
  const language = useLanguage();
  return (
    <div className="language-select">
      <label htmlFor="language-select" className="visually-hidden">
        {t('language.label')}
      </label>
      <svg aria-hidden="true" width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
        <circle cx="12" cy="12" r="9" />
        <path d="M3 12h18M12 3c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9c-2.5-2.6-3.8-5.6-3.8-9S9.5 5.6 12 3z" />
      </svg>
      <select
        id="language-select"
        className="language-select__control"
        value={language}
        onChange={(event) => {
          const chosen = event.target.value as Language;
          setLanguage(chosen).catch((error: unknown) => console.error('[marque] the language could not be changed', error));
          keepWithAccount(chosen);
        }}
      >
        {LANGUAGES.map((option) => (
          <option key={option.code} value={option.code} lang={option.code}>
            {option.name}
          </option>
        ))}
      </select>
    </div>
  );
}
