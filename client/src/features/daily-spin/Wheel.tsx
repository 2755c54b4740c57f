import { useEffect, useRef, useState } from "react";
import { useAnimate } from "motion/react-mini";
import { SPIN_ANIMATION_MS, WHEEL_PRIZES } from "@casino/common/constants";
import { SEGMENT_DEGREES } from "@casino/common/wheel";

const R = 100;
const point = (deg: number, r: number) => {
  const rad = (deg * Math.PI) / 180;
  return [R + r * Math.sin(rad), R - r * Math.cos(rad)] as const;
};

function fillOf(i: number, prize: number): { fill: string; text: string } {
  if (prize === 500) return { fill: "hsl(var(--gold))", text: "hsl(222 47% 8%)" };
  return i % 2 === 0
    ? { fill: "hsl(var(--primary))", text: "hsl(var(--primary-foreground))" }
    : { fill: "hsl(var(--muted))", text: "hsl(var(--foreground))" };
}

/**
 * The 12-segment wheel drawn from WHEEL_PRIZES (segment i spans i·30° to (i+1)·30° clockwise from the
 * pointer at rest). It turns from where it is to `rotation` in 4 s, easing out (motion's WAAPI
 * animator); with reduced motion it is placed at once.
 */
export function Wheel({ rotation, reduced }: { rotation: number; reduced: boolean }) {
  const [scope, animate] = useAnimate<HTMLDivElement>();
  const from = useRef(rotation);
  // Where the wheel is drawn at first; after that the effect below turns it.
  const [initial] = useState(rotation);
  useEffect(() => {
    const el = scope.current;
    if (!el || from.current === rotation) return;
    const start = from.current;
    from.current = rotation;
    const end = `rotate(${rotation}deg)`;
    if (reduced) {
      // eslint-disable-next-line react-hooks/immutability -- el is the DOM node of the animation scope; an effect places it imperatively
      el.style.transform = end;
      return;
    }
    const controls = animate(
      el,
      { transform: [`rotate(${start}deg)`, end] },
      { duration: SPIN_ANIMATION_MS / 1000, ease: [0.12, 0.7, 0.12, 1] },
    );
    void controls.then(() => {
      el.style.transform = end;
    });
  }, [rotation, reduced, animate, scope]);

  return (
    <div className="relative mx-auto aspect-square w-full max-w-[min(20rem,80vw)]">
      <svg viewBox="0 0 24 20" className="absolute left-1/2 top-0 z-10 h-7 w-8 -translate-x-1/2 -translate-y-1 drop-shadow" aria-hidden>
        <path d="M2 1 L22 1 L12 19 Z" fill="hsl(var(--foreground))" stroke="hsl(var(--background))" strokeWidth="1.5" />
      </svg>
      {/* the turning square's corners would reach past the circle (and widen a phone's page): clip them */}
      <div className="h-full w-full overflow-hidden rounded-full">
        <div
          ref={scope}
          className="h-full w-full"
          style={{ transform: `rotate(${initial}deg)` }}
          data-testid="wheel"
          data-rotation={rotation}
        >
          <svg viewBox="0 0 200 200" className="h-full w-full" role="img" aria-label={`Prize wheel: ${WHEEL_PRIZES.join(", ")} coins`}>
            <circle cx={R} cy={R} r={R} fill="hsl(var(--border))" />
            {WHEEL_PRIZES.map((prize, i) => {
              const a0 = i * SEGMENT_DEGREES;
              const a1 = a0 + SEGMENT_DEGREES;
              const [x0, y0] = point(a0, R - 4);
              const [x1, y1] = point(a1, R - 4);
              const [tx, ty] = point(a0 + SEGMENT_DEGREES / 2, R * 0.68);
              const { fill, text } = fillOf(i, prize);
              return (
                <g key={i}>
                  <path
                    d={`M${R} ${R} L${x0} ${y0} A${R - 4} ${R - 4} 0 0 1 ${x1} ${y1} Z`}
                    fill={fill}
                    stroke="hsl(var(--card))"
                    strokeWidth="1"
                  />
                  <text
                    x={tx}
                    y={ty}
                    fill={text}
                    fontSize="13"
                    fontWeight="800"
                    textAnchor="middle"
                    dominantBaseline="central"
                    transform={`rotate(${a0 + SEGMENT_DEGREES / 2} ${tx} ${ty})`}
                  >
                    {prize}
                  </text>
                </g>
              );
            })}
            <circle cx={R} cy={R} r="16" fill="hsl(var(--card))" stroke="hsl(var(--border))" strokeWidth="3" />
            <circle cx={R} cy={R} r="6" fill="hsl(var(--primary))" />
          </svg>
        </div>
      </div>
    </div>
  );
}
