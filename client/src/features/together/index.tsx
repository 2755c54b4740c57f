import { lazy, Suspense, type ReactNode } from "react";

/**
 * Playing together, loaded on its own (the Discord SDK's commands and the feeds stay out of the entry):
 * `<Together />` once for a signed-in page, `<TogetherPanel />` (strip and feeds) at a table, and in the
 * lobby `<TogetherStrip />` at the top and `<TogetherFeeds />` below the games.
 */
const Service = lazy(() => import("./TogetherService"));
const Panel = lazy(() => import("./TogetherPanel"));
const Strip = lazy(() => import("./TogetherPanel").then((m) => ({ default: m.TogetherStrip })));
const Feeds = lazy(() => import("./TogetherPanel").then((m) => ({ default: m.TogetherFeeds })));

export function Together() {
  return (
    <Suspense fallback={null}>
      <Service />
    </Suspense>
  );
}

export function TogetherPanel() {
  return (
    <Suspense fallback={null}>
      <Panel />
    </Suspense>
  );
}

/** The strip; `fallback` while its chunk loads (the lobby's keeps the strip's room). */
export function TogetherStrip({ fallback = null }: { fallback?: ReactNode }) {
  return (
    <Suspense fallback={fallback}>
      <Strip />
    </Suspense>
  );
}

export function TogetherFeeds() {
  return (
    <Suspense fallback={null}>
      <div className="my-4">
        <Feeds />
      </div>
    </Suspense>
  );
}
