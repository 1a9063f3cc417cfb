// The authenticator's QR code drawn as SVG squares (uqr computes the modules; loaded only on the set-up page).
import { encode } from 'uqr';

export default function QrCode({ value, label }: { value: string; label: string }) {
  const { data, size } = encode(value, { ecc: 'M', border: 2 });
  const squares = data.flatMap((row, y) => row.flatMap((dark, x) => (dark ? [`M${x} ${y}h1v1h-1z`] : [])));
  return (
    <svg className="admin-qr" viewBox={`0 0 ${size} ${size}`} width={240} height={240} role="img" aria-label={label} shapeRendering="crispEdges">
      <rect width={size} height={size} fill="#fff" />
      <path d={squares.join('')} fill="#000" />
    </svg>
  );
}
