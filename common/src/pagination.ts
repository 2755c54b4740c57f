import { LEADERBOARD_PAGE_SIZE, PAGINATION_ALL_PAGES_THRESHOLD } from "./constants";

/** One control of the leaderboard's pagination: a page number, or an ellipsis standing for skipped pages. */
export type PageItem = number | "ellipsis";

/** Total pages for `total` rows: ceil(total / page size); zero rows, zero pages. */
export const totalPages = (total: number, pageSize = LEADERBOARD_PAGE_SIZE): number => (total <= 0 ? 0 : Math.ceil(total / pageSize));

/**
 * The spec's pagination window (pages are 1-based): every page when there are 7 or fewer; otherwise the
 * first five pages, an ellipsis and the last page while the current page is 3 or less; the first page,
 * an ellipsis and the last five pages when the current page is within 2 of the end; otherwise the first
 * page, an ellipsis, current-1 to current+1, an ellipsis and the last page. A current page outside
 * 1..pages is treated as the nearest page.
 */
export function paginationWindow(current: number, pages: number): PageItem[] {
  if (pages <= 0) return [];
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
  if (pages <= PAGINATION_ALL_PAGES_THRESHOLD) return range(1, pages);
  const page = Math.min(Math.max(1, Math.trunc(current)), pages);
  if (page <= 3) return [...range(1, 5), "ellipsis", pages];
  if (page >= pages - 2) return [1, "ellipsis", ...range(pages - 4, pages)];
  return [1, "ellipsis", page - 1, page, page + 1, "ellipsis", pages];
}

/** The rows shown on a page, 1-based and inclusive, for "Showing X - Y of Z players"; 0 - 0 when empty. */
export function shownRange(page: number, total: number, pageSize = LEADERBOARD_PAGE_SIZE): { from: number; to: number } {
  if (total <= 0) return { from: 0, to: 0 };
  const last = totalPages(total, pageSize);
  const p = Math.min(Math.max(1, Math.trunc(page)), last);
  return { from: (p - 1) * pageSize + 1, to: Math.min(p * pageSize, total) };
}

/** The page that holds a rank (1-based), for "Jump to My Position". */
export const pageOfRank = (rank: number, pageSize = LEADERBOARD_PAGE_SIZE): number => Math.max(1, Math.ceil(rank / pageSize));
