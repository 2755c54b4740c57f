export * from "./stream";
