// The home page's rotating banner: four slides that advance on their own, and pause whenever the
// visitor is reading or using them (pointer over it, keyboard focus inside it, the pause control,
// or a system preference for reduced motion). Follows the WAI-ARIA auto-rotating carousel pattern.
import { useT } from '@marque/i18n';
import { searchHref } from '@marque/ui';
import { useEffect, useState, type FocusEvent } from 'react';
import { Link } from 'wouter';
import { usePrefersReducedMotion } from '../hooks/use-prefers-reduced-motion';
import { BannerArt, type BannerArtKind } from './BannerArt';

/** How long each slide stays before the next one (specification: 5 seconds). */
export const BANNER_INTERVAL_MS = 5000;

type Slide = { id: BannerArtKind; href: string; inPage?: boolean };

const SLIDES: readonly Slide[] = [
  // The brand strip further down the same page.
  { id: 'brands', href: '#home-brands', inPage: true },
  { id: 'part_number', href: searchHref('') },
  { id: 'delivery', href: '/termandcondition' },
  { id: 'warranty', href: '/contactus' },
];

export const BANNER_SLIDE_COUNT = SLIDES.length;

export function HomeBanner() {
  const t = useT('home');
  const reducedMotion = usePrefersReducedMotion();
  const [current, setCurrent] = useState(0);
  // null: the visitor has not pressed pause or play, so the motion preference decides.
  const [chosenPlaying, setChosenPlaying] = useState<boolean | null>(null);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);

  const playing = chosenPlaying ?? !reducedMotion;
  const rotating = playing && !hovered && !focused;
  const count = SLIDES.length;

  useEffect(() => {
    if (!rotating) return;
    // Restarted on every slide change, so a slide chosen by hand also gets its full 5 seconds.
    const timer = setTimeout(() => setCurrent((index) => (index + 1) % count), BANNER_INTERVAL_MS);
    return () => clearTimeout(timer);
  }, [rotating, current, count]);

  const show = (index: number) => setCurrent(((index % count) + count) % count);

  // Focus on the pause/play control itself does not hold the slides: pressing play must start them.
  const onFocus = (event: FocusEvent<HTMLElement>) =>
    setFocused(!(event.target as HTMLElement).matches('.banner__rotation'));
  const onBlur = (event: FocusEvent<HTMLElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
  };

  return (
    <section
      className="banner"
      aria-roledescription="carousel"
      aria-label={t('banner.label')}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={onFocus}
      onBlur={onBlur}
    >
      <div className="banner__controls">
        <button
          type="button"
          className="banner__rotation"
          aria-label={playing ? t('banner.pause') : t('banner.play')}
          onClick={() => setChosenPlaying(!playing)}
        >
          <span aria-hidden="true" className={playing ? 'banner__icon-pause' : 'banner__icon-play'} />
        </button>
        <button type="button" className="banner__step" aria-label={t('banner.previous')} onClick={() => show(current - 1)}>
          <span aria-hidden="true">‹</span>
        </button>
        <div className="banner__dots">
          {SLIDES.map((slide, index) => (
            <button
              key={slide.id}
              type="button"
              className="banner__dot"
              aria-label={t('banner.go_to', { n: index + 1 })}
              aria-current={index === current ? 'true' : undefined}
              onClick={() => show(index)}
            />
          ))}
        </div>
        <button type="button" className="banner__step" aria-label={t('banner.next')} onClick={() => show(current + 1)}>
          <span aria-hidden="true">›</span>
        </button>
      </div>

      <div className="banner__slides" aria-live={rotating ? 'off' : 'polite'}>
        {SLIDES.map((slide, index) => {
          const active = index === current;
          return (
            <div
              key={slide.id}
              role="group"
              aria-roledescription="slide"
              aria-label={t('banner.slide', { n: index + 1, count })}
              aria-hidden={active ? undefined : true}
              inert={!active}
              className={`banner__slide banner__slide--${slide.id}${active ? ' banner__slide--active' : ''}`}
            >
              <div className="banner__text">
                <p className="banner__title">{t(`banner.${slide.id}.title`)}</p>
                <p className="banner__body">{t(`banner.${slide.id}.text`)}</p>
                {slide.inPage ? (
                  <a className="button banner__cta" href={slide.href}>
                    {t(`banner.${slide.id}.cta`)}
                  </a>
                ) : (
                  <Link className="button banner__cta" href={slide.href}>
                    {t(`banner.${slide.id}.cta`)}
                  </Link>
                )}
              </div>
              <BannerArt kind={slide.id} />
            </div>
          );
        })}
      </div>
    </section>
  );
}
