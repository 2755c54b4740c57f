import type { ReactNode } from "react";

/**
 * Symbols drawn as SVG, so every device shows the same thing (emoji fonts differ, and some webviews
 * have none).
 */
type IconProps = { size?: number; className?: string };

/** An icon of `art` drawn on a square of `view` units, shown `size` pixels wide (`defaultSize` unless told), hidden from screen readers. */
function svgIcon(view: number, defaultSize: number, art: () => ReactNode) {
  return function Icon({ size = defaultSize, className }: IconProps) {
    return (
      <svg viewBox={`0 0 ${view} ${view}`} width={size} height={size} className={className} aria-hidden>
        {art()}
      </svg>
    );
  };
}

export const GemIcon = svgIcon(32, 28, () => (
  <>
    <polygon points="6,11 11,5 21,5 26,11 16,28" fill="#34d399" stroke="#064e3b" strokeWidth="1.2" />
    <polygon points="6,11 26,11 16,28" fill="#10b981" />
    <polygon points="11,5 16,11 21,5" fill="#a7f3d0" />
    <polyline points="6,11 26,11" stroke="#064e3b" strokeWidth="1" />
  </>
));

const MINE_SPIKES = [0, 45, 90, 135];

export const MineIcon = svgIcon(32, 28, () => (
  <>
    {MINE_SPIKES.map((a) => (
      <rect key={a} x="15" y="3" width="2" height="26" rx="1" fill="#1f2937" transform={`rotate(${a} 16 16)`} />
    ))}
    <circle cx="16" cy="16" r="9" fill="#111827" />
    <circle cx="13" cy="13" r="2.5" fill="#f87171" />
  </>
));

export const CherryIcon = svgIcon(48, 48, () => (
  <>
    <path d="M16 30 C18 18, 24 10, 34 6 M32 30 C30 20, 31 12, 34 6" stroke="#166534" strokeWidth="3" fill="none" strokeLinecap="round" />
    <path d="M34 6 C38 4, 43 6, 44 10 C39 11, 36 9, 34 6" fill="#22c55e" />
    <circle cx="15" cy="34" r="9" fill="#dc2626" />
    <circle cx="33" cy="34" r="9" fill="#b91c1c" />
    <circle cx="12" cy="31" r="2.5" fill="#fecaca" />
    <circle cx="30" cy="31" r="2.5" fill="#fecaca" />
  </>
));

export const OrangeIcon = svgIcon(48, 48, () => (
  <>
    <circle cx="24" cy="26" r="17" fill="#f97316" />
    <circle cx="18" cy="20" r="4" fill="#fdba74" />
    <path d="M24 9 C26 5, 31 4, 34 6 C31 9, 27 10, 24 9" fill="#16a34a" />
  </>
));

export const PlumIcon = svgIcon(48, 48, () => (
  <>
    <ellipse cx="24" cy="27" rx="15" ry="17" fill="#7c3aed" />
    <path d="M24 12 C24 20, 22 32, 24 43" stroke="#5b21b6" strokeWidth="2" fill="none" />
    <ellipse cx="18" cy="21" rx="3" ry="5" fill="#c4b5fd" />
    <path d="M24 10 C26 6, 30 4, 33 6" stroke="#166534" strokeWidth="3" fill="none" strokeLinecap="round" />
  </>
));

export const BellIcon = svgIcon(48, 48, () => (
  <>
    <path
      d="M24 6 C14 6, 12 16, 12 24 C12 30, 9 33, 7 36 L41 36 C39 33, 36 30, 36 24 C36 16, 34 6, 24 6 Z"
      fill="#facc15"
      stroke="#a16207"
      strokeWidth="1.5"
    />
    <circle cx="24" cy="40" r="4" fill="#a16207" />
    <rect x="22" y="2" width="4" height="5" rx="2" fill="#a16207" />
    <path d="M17 14 C16 18, 16 22, 16 26" stroke="#fef9c3" strokeWidth="2.5" fill="none" strokeLinecap="round" />
  </>
));

export const MelonIcon = svgIcon(48, 48, () => (
  <>
    <path d="M4 16 A20 20 0 0 0 44 16 Z" fill="#16a34a" />
    <path d="M7 16 A17 17 0 0 0 41 16 Z" fill="#f43f5e" />
    {[14, 20, 26, 32].map((x) => (
      <ellipse key={x} cx={x} cy={x % 12 === 2 ? 22 : 25} rx="1.2" ry="2" fill="#111827" />
    ))}
  </>
));
