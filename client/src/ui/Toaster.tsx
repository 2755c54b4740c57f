import * as Toast from "@radix-ui/react-toast";
import { X } from "lucide-react";
import { useToast } from "../store/toast";
import { cn } from "./cn";

const VARIANT = {
  default: "border-border bg-card",
  success: "border-positive/50 bg-card",
  destructive: "border-destructive bg-destructive text-destructive-foreground",
} as const;

/** The one toast of the spec (at most one at a time); a new toast replaces the one shown. */
export function Toaster() {
  const current = useToast((s) => s.current);
  const dismiss = useToast((s) => s.dismiss);
  return (
    <Toast.Provider swipeDirection="right" duration={5_000}>
      {current && (
        <Toast.Root
          key={current.id}
          duration={current.duration ?? 5_000}
          onOpenChange={(open) => !open && dismiss(current.id)}
          className={cn(
            // on a phone one line where it fits (title, then the amount), so it hides as little as it can
            "pointer-events-auto flex w-full items-start gap-3 rounded-xl border p-4 pr-10 shadow-xl relative max-sm:py-2.5",
            "data-[swipe=end]:translate-x-full",
            VARIANT[current.variant ?? "default"],
          )}
          data-testid="toast"
        >
          <div className="min-w-0 flex-1 max-sm:flex max-sm:flex-wrap max-sm:items-baseline max-sm:gap-x-2">
            <Toast.Title className="font-semibold">{current.title}</Toast.Title>
            {current.description && (
              <Toast.Description className="mt-0.5 text-sm opacity-90 max-sm:mt-0">{current.description}</Toast.Description>
            )}
          </div>
          <Toast.Close aria-label="Dismiss" className="absolute right-2 top-2 rounded p-1 opacity-70 hover:opacity-100">
            <X className="h-4 w-4" aria-hidden />
          </Toast.Close>
        </Toast.Root>
      )}
      {/* placed by .toast-viewport (styles.css): at the bottom, or under a game's header while its action bar is fixed */}
      <Toast.Viewport className="toast-viewport fixed z-[60] flex w-full flex-col gap-2 outline-none" />
    </Toast.Provider>
  );
}
