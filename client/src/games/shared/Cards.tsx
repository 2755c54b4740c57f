import { useEffect, useState } from "react";
import { motion } from "motion/react";
import { useFastReveal } from "../../ui/useReducedMotion";
import { RANK_NAMES, SUITS, rankOf, suitOf, cardName, type Card } from "@casino/common/games/cards";

const RED_SUITS = new Set([0, 1]); // ♦ ♥
/** how long a card takes to deal in, once its delay has passed */
const DEAL_S = 0.3;

/** One playing card from its code (common/games/cards); `card` null draws its back. Deals in with a flip. */
export function PlayingCard(props: {
  card: Card | null;
  /** seconds to wait before it is dealt */
  delay?: number;
  size?: "sm" | "md";
  highlight?: boolean;
  dim?: boolean;
  testId?: string;
}) {
  const { card, delay = 0, size = "md", highlight, dim, testId } = props;
  const box = size === "sm" ? "h-16 w-11 text-sm" : "h-24 w-16 text-lg sm:h-28 sm:w-20";
  const common = `relative shrink-0 select-none rounded-lg shadow-md ${box} ${highlight ? "ring-4 ring-amber-300" : ""} ${dim ? "opacity-50" : ""}`;
  const motionProps = {
    initial: { opacity: 0, y: -40, rotateY: 90 },
    animate: { opacity: dim ? 0.5 : 1, y: 0, rotateY: 0 },
    transition: { delay, duration: DEAL_S },
  };
  if (card === null) {
    return (
      <motion.div
        {...motionProps}
        data-testid={testId}
        role="img"
        aria-label="face-down card"
        className={`${common} border-2 border-white/80 bg-[repeating-linear-gradient(45deg,#1e3a8a,#1e3a8a_6px,#1d4ed8_6px,#1d4ed8_12px)]`}
      />
    );
  }
  const rank = RANK_NAMES[rankOf(card) - 2];
  const suit = SUITS[suitOf(card)];
  const color = RED_SUITS.has(suitOf(card)) ? "text-rose-600" : "text-slate-900";
  return (
    <motion.div
      {...motionProps}
      data-testid={testId}
      data-card={cardName(card)}
      role="img"
      aria-label={cardName(card)}
      className={`${common} bg-white ${color}`}
    >
      {/* A small card's corner is tighter, so it shows whole beside the card dealt over it (a fan's 24 px). */}
      <span className={`absolute top-1 font-bold leading-none ${size === "sm" ? "left-1 tracking-tighter" : "left-1.5"}`}>
        {rank}
        <br />
        {suit}
      </span>
      <span className={`absolute inset-0 flex items-center justify-center ${size === "sm" ? "text-xl" : "text-3xl sm:text-4xl"}`}>
        {suit}
      </span>
    </motion.div>
  );
}

/**
 * True once `seconds` have passed since `key` last changed (at once when the table shows results at
 * once): what is shown only after the cards that make it have landed.
 */
function useAfter(key: string, seconds: number): boolean {
  const fast = useFastReveal();
  const now = fast || seconds <= 0;
  const [doneKey, setDoneKey] = useState<string | null>(null);
  useEffect(() => {
    if (now) return;
    const timer = setTimeout(() => setDoneKey(key), seconds * 1000);
    return () => clearTimeout(timer);
  }, [key, seconds, now]);
  return now || doneKey === key;
}

/**
 * A row of cards with a label and an optional total. The total tells nothing before its cards are on
 * the table: it is put on the page once every card has landed (and not before `totalDelay`).
 */
export function Hand(props: {
  label: string;
  cards: (Card | null)[];
  total?: string;
  testId?: string;
  highlight?: (i: number) => boolean;
  size?: "sm" | "md";
  /** seconds before card i is dealt (a short stagger by default) */
  delayOf?: (i: number) => number;
  /** a redeal key: cards deal in again when it changes */
  dealKey?: string | number;
  /** seconds before the total appears */
  totalDelay?: number;
}) {
  const delayOf = props.delayOf ?? ((i: number) => i * 0.18);
  const landed = Math.max(props.totalDelay ?? 0, ...props.cards.map((_, i) => delayOf(i) + DEAL_S));
  const totalKey = `${props.dealKey ?? ""}|${props.cards.map((c) => c ?? "x").join(",")}|${props.total ?? ""}`;
  const totalShown = useAfter(totalKey, props.total === undefined ? 0 : landed);
  return (
    <div className="flex flex-col items-center gap-2" data-testid={props.testId} data-hand="">
      <div className="flex items-center gap-2 text-xs font-semibold uppercase tracking-wider text-muted-foreground">
        {props.label}
        {props.total !== undefined && totalShown && (
          <motion.span
            key={`${props.dealKey ?? ""}-${props.total}`}
            initial={{ opacity: 0 }}
            animate={{ opacity: 1 }}
            className="rounded-full bg-card/80 px-2 py-0.5 text-sm normal-case text-foreground"
            data-testid={props.testId ? `${props.testId}-total` : undefined}
            data-hand-total=""
          >
            {props.total}
          </motion.span>
        )}
      </div>
      <div className="flex min-h-24 flex-wrap justify-center gap-1.5 sm:min-h-28">
        {props.cards.map((c, i) => (
          <PlayingCard
            key={`${props.dealKey ?? ""}-${i}-${c ?? "x"}`}
            card={c}
            delay={delayOf(i)}
            size={props.size}
            highlight={props.highlight?.(i)}
          />
        ))}
      </div>
    </div>
  );
}

/** "two-pair" → "Two pair" */
export const handName = (category: string): string => {
  const words = category.replace(/-/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
};
