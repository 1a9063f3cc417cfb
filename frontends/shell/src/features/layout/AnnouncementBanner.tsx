// The announcement at the top of every page: many parts are not online yet, call for any part.
// Once closed it never shows again, on this page or after a reload.
import { useT } from '@marque/i18n';
import { richText, useShopIdentity } from '@marque/ui';
import { useState } from 'react';

export const ANNOUNCEMENT_CLOSED_KEY = 'announcementClosed';

function wasClosed(): boolean {
  try {
    return localStorage.getItem(ANNOUNCEMENT_CLOSED_KEY) === 'true';
  } catch {
    return false;
  }
}

/** `tel:` wants the number without spaces or dashes. */
export const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, '')}`;

export function AnnouncementBanner() {
  const t = useT('shell');
  const { enquiryPhone } = useShopIdentity();
  const [closed, setClosed] = useState(wasClosed);
  if (closed || !enquiryPhone) return null;

  const close = () => {
    try {
      localStorage.setItem(ANNOUNCEMENT_CLOSED_KEY, 'true');
    } catch {
      // Storage refused (private window): the banner stays closed for this page only.
    }
    setClosed(true);
  };

  return (
    <section className="announcement" aria-label={t('banner.label')}>
      <div className="container announcement__inner">
        <p className="announcement__text">
          {richText((vars) => t('banner.text', vars), {
            phone: (
              <a className="announcement__phone" href={telHref(enquiryPhone)}>
                {enquiryPhone}
              </a>
            ),
          })}
        </p>
        <button type="button" className="announcement__close" aria-label={t('banner.close')} onClick={close}>
          <span aria-hidden="true">×</span>
        </button>
      </div>
    </section>
  );
}
