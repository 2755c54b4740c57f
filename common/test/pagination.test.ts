import { describe, expect, it } from "vitest";
import { pageOfRank, paginationWindow, shownRange, totalPages } from "../src/pagination";

describe("total pages", () => {
  it("is ceil(total / 25), and zero for no players", () => {
    expect(totalPages(0)).toBe(0);
    expect(totalPages(1)).toBe(1);
    expect(totalPages(25)).toBe(1);
    expect(totalPages(26)).toBe(2);
    expect(totalPages(175)).toBe(7);
    expect(totalPages(176)).toBe(8);
    expect(totalPages(10, 3)).toBe(4);
  });
});

describe("the pagination window of the spec", () => {
  it("is empty without pages", () => {
    expect(paginationWindow(1, 0)).toEqual([]);
  });

  it("lists every page when there are 7 or fewer, whatever the current page", () => {
    expect(paginationWindow(1, 1)).toEqual([1]);
    expect(paginationWindow(2, 3)).toEqual([1, 2, 3]);
    for (let current = 1; current <= 7; current++) expect(paginationWindow(current, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it("shows the first five pages, an ellipsis and the last page while the current page is 3 or less", () => {
    for (const current of [1, 2, 3]) expect(paginationWindow(current, 8)).toEqual([1, 2, 3, 4, 5, "ellipsis", 8]);
    expect(paginationWindow(3, 40)).toEqual([1, 2, 3, 4, 5, "ellipsis", 40]);
  });

  it("shows the first page, an ellipsis and the last five pages within 2 of the end", () => {
    for (const current of [38, 39, 40]) expect(paginationWindow(current, 40)).toEqual([1, "ellipsis", 36, 37, 38, 39, 40]);
    for (const current of [6, 7, 8]) expect(paginationWindow(current, 8)).toEqual([1, "ellipsis", 4, 5, 6, 7, 8]);
  });

  it("shows current-1 to current+1 between two ellipses otherwise, with the first and last pages", () => {
    expect(paginationWindow(4, 40)).toEqual([1, "ellipsis", 3, 4, 5, "ellipsis", 40]);
    expect(paginationWindow(20, 40)).toEqual([1, "ellipsis", 19, 20, 21, "ellipsis", 40]);
    expect(paginationWindow(37, 40)).toEqual([1, "ellipsis", 36, 37, 38, "ellipsis", 40]);
    // 8 pages: page 4 is neither ≤ 3 nor within 2 of the end (≥ 6); page 5 is not within 2 of the end either.
    expect(paginationWindow(4, 8)).toEqual([1, "ellipsis", 3, 4, 5, "ellipsis", 8]);
    expect(paginationWindow(5, 8)).toEqual([1, "ellipsis", 4, 5, 6, "ellipsis", 8]);
  });

  it("treats a current page outside the range as the nearest page", () => {
    expect(paginationWindow(0, 40)).toEqual(paginationWindow(1, 40));
    expect(paginationWindow(-3, 40)).toEqual(paginationWindow(1, 40));
    expect(paginationWindow(99, 40)).toEqual(paginationWindow(40, 40));
  });

  it("never repeats a page and always keeps the current page, first and last visible", () => {
    for (let pages = 1; pages <= 60; pages++) {
      for (let current = 1; current <= pages; current++) {
        const items = paginationWindow(current, pages);
        const numbers = items.filter((i): i is number => typeof i === "number");
        expect(new Set(numbers).size).toBe(numbers.length);
        expect(numbers).toContain(current);
        expect(numbers[0]).toBe(1);
        expect(numbers[numbers.length - 1]).toBe(pages);
        expect([...numbers].sort((a, b) => a - b)).toEqual(numbers);
        expect(items.length).toBeLessThanOrEqual(7);
      }
    }
  });
});

describe("Showing X - Y of Z players", () => {
  it("covers full pages, the last partial page and the empty board", () => {
    expect(shownRange(1, 0)).toEqual({ from: 0, to: 0 });
    expect(shownRange(1, 7)).toEqual({ from: 1, to: 7 });
    expect(shownRange(1, 60)).toEqual({ from: 1, to: 25 });
    expect(shownRange(2, 60)).toEqual({ from: 26, to: 50 });
    expect(shownRange(3, 60)).toEqual({ from: 51, to: 60 });
    expect(shownRange(9, 60)).toEqual({ from: 51, to: 60 });
  });

  it("finds the page of a rank", () => {
    expect(pageOfRank(1)).toBe(1);
    expect(pageOfRank(25)).toBe(1);
    expect(pageOfRank(26)).toBe(2);
    expect(pageOfRank(1000)).toBe(40);
  });
});
