import { ChevronLeft, ChevronRight } from "lucide-react";
import { paginationWindow } from "@casino/common/pagination";
import { cn } from "../../ui/cn";

/** Previous, the spec's window of numbered pages with ellipses, Next. */
export function Pagination({ page, pages, onPage }: { page: number; pages: number; onPage(page: number): void }) {
  if (pages <= 1) return null;
  const items = paginationWindow(page, pages);
  const base = "grid h-9 min-w-9 place-items-center rounded-lg px-2 text-sm font-semibold";
  return (
    <nav aria-label="Leaderboard pages" className="flex flex-wrap items-center justify-center gap-1">
      <button className={cn(base, "gap-1 px-3 hover:bg-muted disabled:opacity-40")} disabled={page <= 1} onClick={() => onPage(page - 1)}>
        <span className="flex items-center gap-1">
          <ChevronLeft className="h-4 w-4" aria-hidden />
          <span className="hidden min-[420px]:inline">Previous</span>
          <span className="sr-only min-[420px]:hidden">Previous</span>
        </span>
      </button>
      {items.map((item, i) =>
        item === "ellipsis" ? (
          <span key={`e${i}`} className={cn(base, "text-muted-foreground")} aria-hidden>
            …
          </span>
        ) : (
          <button
            key={item}
            className={cn(
              base,
              item === page ? "bg-primary inset-ring-2 inset-ring-primary-edge text-primary-foreground" : "hover:bg-muted",
            )}
            aria-label={`Page ${item}`}
            aria-current={item === page ? "page" : undefined}
            onClick={() => onPage(item)}
          >
            {item}
          </button>
        ),
      )}
      <button
        className={cn(base, "gap-1 px-3 hover:bg-muted disabled:opacity-40")}
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      >
        <span className="flex items-center gap-1">
          <span className="hidden min-[420px]:inline">Next</span>
          <span className="sr-only min-[420px]:hidden">Next</span>
          <ChevronRight className="h-4 w-4" aria-hidden />
        </span>
      </button>
    </nav>
  );
}
