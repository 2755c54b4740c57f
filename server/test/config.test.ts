import { describe, expect, it } from "vitest";
import { ConfigError, IN_MEMORY, loadConfig } from "../src/config";

describe("configuration", () => {
  it("keeps DATA_DIR=memory:// as the in-memory marker instead of resolving it to a folder", () => {
    const config = loadConfig({ DATA_DIR: IN_MEMORY });
    expect(config.dataDir).toBe(IN_MEMORY);
    expect(config.sessionSecret.length).toBeGreaterThanOrEqual(32);
  });

  it("names the variable and the reason of a bad value", () => {
    expect(() => loadConfig({ PORT: "seventy" })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: "seventy" })).toThrow(/PORT/);
  });
});
