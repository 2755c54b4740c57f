import * as Toast from "@radix-ui/react-toast";
import { createPortal } from "react-dom";
import { X } from "lucide-react";
import { useToast } from "../store/toast";
import { cn } from "./cn";

const VARIANT = {
  default: "border-border bg-card",
  success: "border-positive/50 bg-card",
  destructive: "border-destructive bg-destructive text-destructive-foreground",
} as const;

/**
 * The one toast of the spec (at most one at a time); a new toast replaces the one shown. While a game is
 * open it shows in the game header's slot, over the title only (a compact box of two or three short
 * lines), so it never covers the table, its result or a control at any screen size; elsewhere at the
 * bottom right.
 */
export function Toaster() {
  const current = useToast((s) => s.current);
  const dismiss = useToast((s) => s.dismiss);
  const slot = useToast((s) => s.slot);
  return (
    <Toast.Provider swipeDirection="right" duration={5_000}>
      {current && (
        <Toast.Root
          key={current.id}
          duration={current.duration ?? 5_000}
          onOpenChange={(open) => !open && dismiss(current.id)}
          className={cn(
            "pointer-events-auto relative flex w-full rounded-xl border shadow-xl",
            "data-[swipe=end]:translate-x-full",
            slot ? "h-full max-w-sm items-center gap-2 py-1 pl-3 pr-9 text-xs leading-tight sm:text-sm" : "items-start gap-3 p-4 pr-10",
            VARIANT[current.variant ?? "default"],
          )}
          data-testid="toast"
        >
          <div className="min-w-0 flex-1">
            <Toast.Title className="font-semibold">{current.title}</Toast.Title>
            {current.description && (
              <Toast.Description className={cn("opacity-90", !slot && "mt-0.5 text-sm")}>{current.description}</Toast.Description>
            )}
          </div>
          <Toast.Close
            aria-label="Dismiss"
            className={cn(
              "absolute grid place-items-center rounded opacity-70 hover:opacity-100",
              slot ? "right-0.5 top-1/2 h-8 w-8 -translate-y-1/2" : "right-2 top-2 p-1",
            )}
          >
            <X className="h-4 w-4" aria-hidden />
          </Toast.Close>
        </Toast.Root>
      )}
      {slot ? (
        createPortal(<Toast.Viewport className="flex h-full w-full items-stretch justify-end outline-none" />, slot)
      ) : (
        // placed by .toast-viewport (styles.css): at the bottom right
        <Toast.Viewport className="toast-viewport fixed z-[60] flex w-full flex-col gap-2 outline-none" />
      )}
    </Toast.Provider>
  );
}
