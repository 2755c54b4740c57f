import { MotionConfig, motion } from "motion/react";
import { cn } from "./cn";

export interface ModeTab<Id extends string> {
  id: Id;
  label: string;
}

/**
 * The switch between a screen's modes ("Play solo" / "Join the table", "Live" / "Instant", "A
 * round" / "A table shoe"): tabs in a pill, the chosen one raised on a card that slides to it.
 */
export function ModeTabs<Id extends string>(props: {
  /** what the switch chooses, for screen readers */
  label: string;
  tabs: ModeTab<Id>[];
  value: NoInfer<Id>;
  onChange: (id: NoInfer<Id>) => void;
  /** the sliding card's layout id: one per switch on a page */
  layoutId: string;
  /** each tab's test id is this prefix, a dash and the tab's id */
  testIdPrefix?: string;
  /** placement on the page (margins, order) */
  className?: string;
}) {
  return (
    <MotionConfig reducedMotion="user">
      <div
        role="tablist"
        aria-label={props.label}
        className={cn("flex w-fit gap-1 self-start rounded-xl bg-muted p-1 ring-1 ring-border", props.className)}
      >
        {props.tabs.map((tab) => (
          <button
            key={tab.id}
            role="tab"
            type="button"
            aria-selected={props.value === tab.id}
            data-testid={props.testIdPrefix ? `${props.testIdPrefix}-${tab.id}` : undefined}
            onClick={() => props.onChange(tab.id)}
            className="relative min-h-8 rounded-lg px-4 py-1.5 text-sm font-semibold"
          >
            {props.value === tab.id && (
              <motion.span layoutId={props.layoutId} className="absolute inset-0 rounded-lg bg-card shadow-sm ring-1 ring-border" />
            )}
            <span className="relative">{tab.label}</span>
          </button>
        ))}
      </div>
    </MotionConfig>
  );
}
