// The shop's terms every buyer should read before ordering a part: transit, warranty, refunds.
import { useT } from '@marque/i18n';

const POINTS = ['liability', 'warranty', 'refunds'] as const;

export function ImportantInformation() {
  const t = useT('product');
  return (
    <section className="important-information" aria-labelledby="important-information">
      <h2 id="important-information">{t('info.heading')}</h2>
      <ul>
        {POINTS.map((point) => (
          <li key={point}>
            <strong>{t(`info.${point}.title`)}:</strong> {t(`info.${point}.text`)}
          </li>
        ))}
      </ul>
    </section>
  );
}
