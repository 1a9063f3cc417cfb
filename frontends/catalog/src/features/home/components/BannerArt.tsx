// Drawings for the home banner's slides, made of shapes (no photos): badges, a part-number search,
// a delivery van and a warranty shield. Decorative: the slide's text says what they show.
import type { ReactNode } from 'react';

export type BannerArtKind = 'brands' | 'part_number' | 'delivery' | 'warranty';

export function BannerArt({ kind }: { kind: BannerArtKind }) {
  return (
    <svg className="banner__art" viewBox="0 0 200 140" aria-hidden="true" focusable="false">
      {ART[kind]}
    </svg>
  );
}

const ART: Record<BannerArtKind, ReactNode> = {
  brands: (
    <g fill="none" strokeWidth="6">
      <circle cx="60" cy="70" r="38" stroke="currentColor" opacity="0.9" />
      <circle cx="100" cy="70" r="38" stroke="currentColor" opacity="0.6" />
      <circle cx="140" cy="70" r="38" stroke="currentColor" opacity="0.35" />
      <path d="M100 40 l8 22 h22 l-18 13 7 22 -19-14 -19 14 7-22 -18-13 h22z" fill="currentColor" stroke="none" />
    </g>
  ),
  part_number: (
    <g fill="currentColor">
      {[20, 30, 36, 48, 54, 66, 74, 80, 92, 100].map((x, i) => (
        <rect key={x} x={x} y="34" width={i % 3 === 0 ? 6 : 3} height="62" opacity="0.85" />
      ))}
      <circle cx="138" cy="70" r="30" fill="none" stroke="currentColor" strokeWidth="8" />
      <rect x="158" y="92" width="12" height="40" rx="5" transform="rotate(-45 164 112)" />
    </g>
  ),
  delivery: (
    <g fill="currentColor">
      <rect x="14" y="38" width="104" height="62" rx="6" opacity="0.9" />
      <path d="M122 58 h38 l24 24 v18 h-62z" opacity="0.7" />
      <circle cx="48" cy="106" r="15" />
      <circle cx="160" cy="106" r="15" />
      <circle cx="48" cy="106" r="6" fill="var(--banner-bg, #12233d)" />
      <circle cx="160" cy="106" r="6" fill="var(--banner-bg, #12233d)" />
    </g>
  ),
  warranty: (
    <g>
      <path d="M100 12 l58 20 v36 c0 34 -26 56 -58 66 c-32 -10 -58 -32 -58 -66 v-36z" fill="currentColor" opacity="0.85" />
      <path d="M74 72 l18 18 l36 -38" fill="none" stroke="var(--banner-bg, #12233d)" strokeWidth="10" strokeLinecap="round" strokeLinejoin="round" />
    </g>
  ),
};
