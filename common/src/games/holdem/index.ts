/** No-limit Texas Hold'em between players: the pure table engine (docs/architecture/holdem.md). */
export * from "./config";
export * from "./evaluator";
export * from "./pots";
export * from "./hand-machine";
export * from "./table";
export * from "./deck";
