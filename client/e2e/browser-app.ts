import { mkdirSync } from "node:fs";
import { afterAll, beforeAll } from "vitest";
import type { Browser, BrowserContextOptions } from "playwright-core";
import type { Clock } from "../../server/src/platform/clock";
import { startTestApp, type TestApp } from "../../server/test/harness";
import { HOST_ORIGIN, startFakeHost, type FakeHost } from "./fake-discord-host";
import { ARTIFACTS, launchChromium } from "./support";

export interface BrowserAppOptions {
  /** The server's environment besides the test defaults; the built client (`client/dist`) is served unless it says otherwise. */
  env?: Record<string, string>;
  /** Also the fake Discord host, and a server that lets the host's page frame it (FRAME_ANCESTORS). */
  discordHost?: boolean;
  /** `false`: a server without Redis. */
  redis?: boolean;
  /**
   * `true` for a file about animations: its pages play them. Otherwise every page asks for reduced
   * motion (a context's own `reducedMotion` still wins), so the app shows each state at once and tests
   * wait on the state, never on an animation's length.
   */
  animations?: boolean;
  /** How long the start may take (ms); the project's hook timeout when absent. */
  timeout?: number;
  /** The shared rooms' clock (a ManualClock: the test moves their time); the process's own time when absent. */
  clock?: Clock;
}

export interface BrowserApp {
  /** The real server, serving the built client. */
  server: TestApp;
  /** Headless Chromium; its new contexts and pages ask for reduced motion unless the file plays animations. */
  browser: Browser;
  /** The fake Discord host; only with `discordHost`. */
  host: FakeHost;
}

/**
 * What a browser test file (or describe block) starts before its tests and closes after them: the real
 * server, Chromium and, when asked, the fake Discord host on a loopback address of its own (the file's
 * Chromium resolves localhost there), so files run in parallel. Registers the beforeAll and afterAll hooks
 * where it is called; the handles it returns may be kept in constants, and are used inside tests and
 * hooks (each reads the value the beforeAll made; reading one earlier throws).
 */
export function setupBrowserApp(options: BrowserAppOptions = {}): BrowserApp {
  let server: TestApp | undefined;
  let browser: Browser | undefined;
  let host: FakeHost | undefined;
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    server = await startTestApp(
      { CLIENT_DIST: "client/dist", ...(options.discordHost ? { FRAME_ANCESTORS: HOST_ORIGIN } : {}), ...options.env },
      { redis: options.redis, clock: options.clock },
    );
    if (options.discordHost) host = await startFakeHost();
    const launched = await launchChromium({ localhost: host?.address });
    browser = options.animations ? launched : withReducedMotion(launched);
  }, options.timeout);
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await server?.close();
  });
  return {
    server: handle("the server", () => server),
    browser: handle("the browser", () => browser),
    host: handle("the fake Discord host (setupBrowserApp({ discordHost: true }))", () => host),
  };
}

/** The browser whose new contexts and pages ask for reduced motion unless their options say otherwise. */
function withReducedMotion(browser: Browser): Browser {
  const reduced = (options: BrowserContextOptions = {}): BrowserContextOptions => ({ reducedMotion: "reduce", ...options });
  return new Proxy(browser, {
    get(target, key) {
      if (key === "newContext") return (options?: BrowserContextOptions) => target.newContext(reduced(options));
      if (key === "newPage") return (options?: BrowserContextOptions) => target.newPage(reduced(options));
      const field: unknown = Reflect.get(target, key, target);
      return typeof field === "function" ? field.bind(target) : field;
    },
  });
}

/** Stands for the value `current` gives once the beforeAll has made it: each property is read from that value. */
function handle<T extends object>(what: string, current: () => T | undefined): T {
  const value = (): T => {
    const made = current();
    if (!made) throw new Error(`${what} is not started: use it inside a test or hook of the block that set it up`);
    return made;
  };
  return new Proxy({} as T, {
    get(_, key) {
      const made = value();
      const field: unknown = Reflect.get(made, key, made);
      return typeof field === "function" ? field.bind(made) : field;
    },
    has: (_, key) => Reflect.has(value(), key),
  });
}
