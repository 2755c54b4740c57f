import { lazy, Suspense } from "react";

/**
 * Playing together, loaded on its own (the Discord SDK's commands and the feeds stay out of the entry):
 * `<Together />` once for a signed-in page, `<TogetherPanel />` wherever the strip and feeds belong.
 */
const Service = lazy(() => import("./TogetherService"));
const Panel = lazy(() => import("./TogetherPanel"));

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
