export * from "./constants";
export * from "./limits";
export * from "./catalogue";
export * from "./validation";
export * from "./fairness/stream";
export * from "./games/engine";
export * from "./games/registry";
export * from "./games/runner";
