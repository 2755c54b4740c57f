export * from "./fixed";
export * from "./input-log";
export * from "./dot-battle";
export * from "./connect-dots";
export * from "./verify";
export * from "./api";
