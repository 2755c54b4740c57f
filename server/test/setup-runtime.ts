/**
 * Loads what the server's entry loads before Colyseus (app.ts imports it first), before any test file
 * imports `@colyseus/core` itself: core reads some of its settings once, when it is loaded.
 */
import "../src/platform/colyseus-runtime";
