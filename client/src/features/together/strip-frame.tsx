/**
 * The "In this activity" strip's frame: a card of three rows whose heights never change (the heading
 * row, the members' row of three lines each, the Tonight line), so the strip takes the same room
 * whatever it shows. The lobby draws the empty frame from its first paint inside an activity and the
 * strip (a lazy chunk) then fills it: nothing under it moves as it arrives, as members come and go, or
 * as a best win or tonight's first round appears.
 */

/** The card around the three rows. */
export const STRIP_CARD = "rounded-2xl border border-border bg-card px-3 py-2 sm:p-3";
/** The heading row: "In this activity", the count, who watches, Invite. */
export const STRIP_HEAD = "mb-1.5 flex h-8 items-center gap-2";
/**
 * The members' row: one scrolling row, each member's text three lines tall (name, doing, best today),
 * and a thin scrollbar's room under it.
 */
export const STRIP_MEMBERS = "-mx-1 flex h-[3.0625rem] gap-2 overflow-x-auto overflow-y-hidden px-1 pb-1 [scrollbar-width:thin] sm:gap-3";
/** A member's three lines (text-xs at leading-tight: 3 × 0.9375 rem), whether or not the third is there. */
export const STRIP_MEMBER_TEXT = "flex h-[2.8125rem] min-w-0 flex-1 flex-col justify-center text-xs leading-tight";
/** The Tonight line under the members. */
export const STRIP_TONIGHT = "mt-1 flex h-8 w-full min-w-0 items-center gap-2 rounded-lg px-1 text-left text-xs";

/** The heading, as the strip shows it. */
export function StripHeading({ count }: { count?: number }) {
  return (
    <>
      <h2 className="whitespace-nowrap text-sm font-semibold">In this activity</h2>
      {count !== undefined && <span className="text-xs text-muted-foreground">({count})</span>}
    </>
  );
}

/** The strip's room before the strip is drawn: its heading and empty rows, at the strip's height. */
export function StripPlaceholder() {
  return (
    <div className={STRIP_CARD} data-testid="together-strip-placeholder" aria-busy="true">
      <div className={STRIP_HEAD}>
        <StripHeading />
      </div>
      <div className={STRIP_MEMBERS} />
      <div className={STRIP_TONIGHT} />
    </div>
  );
}
