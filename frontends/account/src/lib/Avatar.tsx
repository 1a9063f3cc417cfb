// The customer's picture, or the default person drawn in SVG when there is none.
export function Avatar({ src, size = 40, className }: { src: string; size?: number; className?: string }) {
  if (src) return <img className={className ?? 'avatar'} src={src} alt="" width={size} height={size} />;
  return (
    <svg className={className ?? 'avatar'} aria-hidden="true" width={size} height={size} viewBox="0 0 40 40">
      <circle cx="20" cy="20" r="20" fill="#dfe0e5" />
      <circle cx="20" cy="15" r="7" fill="#5b5f6b" />
      <path d="M7 34c2-7 7-10 13-10s11 3 13 10" fill="#5b5f6b" />
    </svg>
  );
}
