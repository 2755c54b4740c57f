/**
 * A ring around a seat's avatar that empties until its deadline (`left`: the share of the time still
 * left, 0 to 1), at a shared table: the blackjack table's turn, the Hold'em table's decision.
 */
export function TimerRing({ left, size }: { left: number; size: number }) {
  const r = size / 2 - 2;
  const length = 2 * Math.PI * r;
  return (
    <svg width={size} height={size} className="pointer-events-none absolute inset-0 -rotate-90" aria-hidden>
      <circle cx={size / 2} cy={size / 2} r={r} fill="none" strokeWidth={3} className="stroke-border" />
      <circle
        cx={size / 2}
        cy={size / 2}
        r={r}
        fill="none"
        strokeWidth={3}
        strokeLinecap="round"
        strokeDasharray={length}
        strokeDashoffset={length * (1 - left)}
        className={left < 0.3 ? "stroke-rose-500" : "stroke-amber-400"}
      />
    </svg>
  );
}
