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
            "pointer-events-auto flex w-full items-start gap-3 rounded-xl border p-4 pr-10 shadow-xl relative",
            "data-[swipe=end]:translate-x-full",
            VARIANT[current.variant ?? "default"],
          )}
          data-testid="toast"
        >
          <div className="min-w-0 flex-1">
            <Toast.Title className="font-semibold">{current.title}</Toast.Title>
            {current.description && <Toast.Description className="mt-0.5 text-sm opacity-90">{current.description}</Toast.Description>}
          </div>
          <Toast.Close aria-label="Dismiss" className="absolute right-2 top-2 rounded p-1 opacity-70 hover:opacity-100">
            <X className="h-4 w-4" aria-hidden />
          </Toast.Close>
        </Toast.Root>
      )}
      <Toast.Viewport
        className="fixed z-[60] flex w-full max-w-sm flex-col gap-2 outline-none"
        style={{
          // above a table's action bar on a phone, so a toast never covers the button it follows
          bottom: "calc(var(--safe-bottom) + var(--action-bar-height, 0px) + 1rem)",
          right: "calc(var(--safe-right) + 1rem)",
          left: "auto",
          maxWidth: "min(24rem, calc(100vw - 2rem))",
        }}
      />
    </Toast.Provider>
  );
}
