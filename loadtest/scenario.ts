import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { VirtualPlayer } from "./player";

/**
 * A scenario is what one simulated player does once joined. `setup` runs once, then `step` runs again
 * and again until the run ends (`p.stopping`). Copy a file of `scenarios/`, edit it, and pass its path
 * to `--scenario`.
 */
export interface Scenario {
  name: string;
  description: string;
  /** Whether the player joins a casino room before `setup` (true unless said otherwise). */
  joinsRoom?: boolean;
  setup?(p: VirtualPlayer): Promise<void>;
  step(p: VirtualPlayer): Promise<void>;
}

export const defineScenario = (scenario: Scenario): Scenario => scenario;

/** The scenarios shipped with the tool, by name. */
export const BUILT_IN = [
  "mixed",
  "dice-spam",
  "multi-step",
  "daily-spin",
  "leaderboard",
  "reconnect-storm",
  "crash",
  "table",
  "holdem",
  "reactions",
  "idle",
] as const;

/** A built-in scenario by name, or a scenario module by path (its default export). */
export async function loadScenario(nameOrPath: string): Promise<Scenario> {
  const builtIn = (BUILT_IN as readonly string[]).includes(nameOrPath);
  const url = builtIn
    ? new URL(`./scenarios/${nameOrPath}.ts`, import.meta.url).href
    : pathToFileURL(isAbsolute(nameOrPath) ? nameOrPath : resolve(process.cwd(), nameOrPath)).href;
  const mod = (await import(url)) as { default?: Scenario };
  const scenario = mod.default;
  if (!scenario || typeof scenario.step !== "function") {
    throw new Error(`${nameOrPath}: not a scenario (expected a default export with a step() function); built-in: ${BUILT_IN.join(", ")}`);
  }
  return scenario;
}
