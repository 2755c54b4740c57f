import { afterEach } from "vitest";
import { cleanup } from "@testing-library/react";

// Testing Library unmounts what a test rendered only by itself when the runner has globals, which
// this one has not.
afterEach(() => {
  cleanup();
  localStorage.clear();
});
