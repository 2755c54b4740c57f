import type { ReactNode } from "react";

/** A centred status line: "Loading casino...", "Loading game...". */
export function Centered({ children }: { children: ReactNode }) {
  return (
    <div role="status" className="grid min-h-[60vh] flex-1 place-items-center p-6 text-center text-muted-foreground">
      {children}
    </div>
  );
}
