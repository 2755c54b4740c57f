import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { TONIGHT_FULL_READ_MS, TONIGHT_PUSH_MS } from "@casino/common";
import { SessionTokens } from "../server/src/core/auth/session";
import { startLoadProcesses, LoadProcess, collect } from "../loadtest/processes";
import { summariseIntervals } from "../loadtest/stats";
import { createGuestTokens } from "../server/src/ops/guest-tokens";
import { startServer, freePorts, type ServerProcess } from "./lib/cluster";
import { backendPids, freshDatabase, leaseRedis } from "./lib/database";
import { CpuMeter, machine, rssBytes } from "./lib/proc";
import { InstanceMembers, percentiles, type WindowCounts } from "./lib/instance-members";
import { loadavg } from "node:os";

/**
 * `npm run bench:ccu`: how many connected players one server process holds, and what they cost.
 *
 * One server process on a fresh PostgreSQL database. Guests and their session tokens are created
 * beforehand through the server's own player code (the REST limit of 600 guests a minute per IP
 * would make 10,000 take 17 minutes). First the baseline: `--bettors` extra players, alone on the
 * server, bet on the schedule below and leave; the server's CPU per bet there is what the later phases
 * are compared to (printed as a ratio at the end). Then load processes connect the players (each a casino room via
 * @colyseus/sdk), which then stay idle. Reported: server RSS per connection (RSS growth / connections),
 * the server's CPU with everyone idle, then bet latency from `--bettors` of the connected players
 * betting on a fixed schedule totalling `--bet-rate` bets a second.
 *
 * Then the same bets with the feed on: each bettor is put in an activity instance of its own with
 * `--feed-viewers` - 1 of the idle players (as an operator would: instance rows in the database, session
 * tokens signed with the secret), and all of them join that instance's together room from this
 * process, so every settled bet is a feed row fanned out to `--feed-viewers` connections. Reported: bet
 * latency and the server's CPU per bet without and with the feed; the difference is the fan-out's cost.
 * Each settled bet also makes the instance's Tonight board (`board` push) be brought up to date and pushed to
 * its members, at most every TONIGHT_PUSH_MS: counted at the receiving members, with the time from the
 * round's record until a member's board first counts it.
 *
 * Then reactions (`--reactions-per-second` per instance, 0 to leave them out): one member of each
 * instance reacts on the instance's crash round on a fixed schedule, first while the bets go on, then
 * alone after the bettors stopped (against a quiet window just before). Reported: reactions sent,
 * answered, refused (by code) and delivered to the other members, the time from sending to each other
 * member's arrival, and the server's CPU per reaction. Every measured window also prints the longest
 * block of the server's event loop (its `/metrics`, `nodejs_eventloop_lag_max_seconds`, reset by each read).
 */
const { values } = parseArgs({
  options: {
    connections: { type: "string", default: "10000" },
    "load-processes": { type: "string", default: "2" },
    ramp: { type: "string", default: "250" },
    bettors: { type: "string", default: "50" },
    "bet-rate": { type: "string", default: "250" },
    seconds: { type: "string", default: "20" },
    "feed-viewers": { type: "string", default: "8" },
    "reactions-per-second": { type: "string", default: "1" },
    redis: { type: "string" },
  },
});
const CONNECTIONS = Number(values.connections);
const LOAD_PROCESSES = Number(values["load-processes"]);
const RAMP = Number(values.ramp);
const BETTORS = Math.min(Number(values.bettors), CONNECTIONS);
const BET_RATE = Number(values["bet-rate"]);
const SECONDS = Number(values.seconds);
const FEED_VIEWERS = Number(values["feed-viewers"]);
const REACTIONS_PER_SECOND = Number(values["reactions-per-second"]);
const SECRET = "bench-secret-bench-secret-bench-secret-0123";
const METRICS_TOKEN = "bench-metrics-token-0123";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const f = (n: number, d = 2) => n.toFixed(d);
const mib = (bytes: number) => `${f(bytes / 1024 / 1024, 1)} MiB`;

async function main() {
  const db = await freshDatabase("casino_ccu");
  const redis = values.redis ? await leaseRedis(values.redis) : undefined;
  let server: ServerProcess | undefined;
  const loads: LoadProcess[] = [];
  try {
    const port = await freePorts(1);
    server = await startServer(
      port,
      {
        HOST: "127.0.0.1",
        DATA_DIR: "memory://",
        DATABASE_URL: db.url,
        REDIS_URL: redis?.url ?? "",
        SESSION_SECRET: SECRET,
        CLIENT_DIST: "none",
        METRICS_TOKEN,
      },
      (line) => {
        if (!line.includes("casino listening")) console.error(`[server] ${line}`);
      },
    );

    let t0 = performance.now();
    // CONNECTIONS players, then BETTORS more for the baseline (players of their own, gone before the ramp).
    const tokens = await createGuestTokens(db.url, SECRET, CONNECTIONS + BETTORS, { concurrency: 16 });
    console.log(
      `${CONNECTIONS + BETTORS} guests and tokens created in ${f((performance.now() - t0) / 1000, 1)} s (server's player code, direct to the database)`,
    );

    const baseline = await bettorsAlone(server.url, db.url, server.pid, tokens);
    await sleep(2000);
    const rssBefore = rssBytes(server.pid);
    const idle = CONNECTIONS - BETTORS;
    t0 = performance.now();
    loads.push(
      ...startLoadProcesses(
        {
          url: server.url,
          players: idle,
          rampSeconds: RAMP,
          scenario: "idle",
          tokens,
          betRate: 20,
          restPerMinute: 600,
          ignoreLimits: false,
          timeoutMs: 60_000,
          gated: true,
        },
        LOAD_PROCESSES,
      ),
    );
    const bettorsProcess = bettorsLoad(server.url, tokens, idle);
    const ready = await Promise.all([...loads, bettorsProcess].map((l) => l.whenReady()));
    const joined = ready.reduce((n, r) => n + r.joined, 0);
    const failed = ready.reduce((n, r) => n + r.failed, 0);
    const joinSeconds = (performance.now() - t0) / 1000;
    console.log(`${joined} connected (${failed} failed) in ${f(joinSeconds, 1)} s = ${f(joined / joinSeconds, 0)} joins/s`);

    // Let the joins' garbage be collected before reading memory; measure idle CPU meanwhile.
    for (const l of loads) l.post({ type: "go" });
    const idleCpu = new CpuMeter({ server: [server.pid], postgres: await backendPids(db.url) });
    idleCpu.start();
    await sleep(10_000);
    const idleUse = idleCpu.stop();
    const rssAfter = rssBytes(server.pid);
    const perConnection = (rssAfter - rssBefore) / Math.max(1, joined);
    const loadRss = [...loads, bettorsProcess].reduce((n, l) => n + rssBytes(l.pid), 0);

    bettorsProcess.post({ type: "go" });
    await sleep(3000);
    bettorsProcess.post({ type: "reset" });
    const serverUrl = server.url;
    const meter = async () =>
      new CpuMeter({
        server: [server!.pid],
        load: [...loads, bettorsProcess].map((l) => l.pid),
        postgres: await backendPids(db.url),
        bench: [process.pid],
      });
    const betCpu = await meter();
    await loopBlockMs(serverUrl);
    betCpu.start();
    const loadBefore = loadavg();
    bettorsProcess.drainIntervals();
    await sleep(SECONDS * 1000);
    const betUse = betCpu.stop();
    const betLoop = await loopBlockMs(serverUrl);
    const plain = summariseIntervals(bettorsProcess.drainIntervals()).get("bet");

    // The feed on: instances of FEED_VIEWERS players (one bettor each), every member in its together room.
    type Window = { from: number; to: number };
    const wall = () => performance.timeOrigin + performance.now();
    let feed:
      | {
          bets: typeof plain;
          use: typeof betUse;
          rows: number;
          viewers: number;
          load: number[];
          counts: WindowCounts;
          loop: number;
          at: Window;
        }
      | undefined;
    let reacting: { bets: typeof plain; use: typeof betUse; counts: WindowCounts; loop: number; at: Window } | undefined;
    let members: InstanceMembers | undefined;
    if (FEED_VIEWERS > 0) {
      members = await InstanceMembers.join(serverUrl, await feedMembers(db.url, tokens, idle, BETTORS, FEED_VIEWERS));
      await sleep(3000);
      bettorsProcess.drainIntervals();
      members.reset();
      const feedCpu = await meter();
      await loopBlockMs(serverUrl);
      const from = wall();
      feedCpu.start();
      await sleep(SECONDS * 1000);
      const use = feedCpu.stop();
      const to = wall();
      const loop = await loopBlockMs(serverUrl);
      const counts = members.take();
      const bets = summariseIntervals(bettorsProcess.drainIntervals()).get("bet");
      feed = { bets, use, rows: counts.feedRows, viewers: members.connections, load: loadavg(), counts, loop, at: { from, to } };

      if (REACTIONS_PER_SECOND > 0) {
        // The same bets, and one member of each instance reacting.
        members.reset();
        const cpu = await meter();
        await loopBlockMs(serverUrl);
        const from = wall();
        cpu.start();
        members.startReacting(REACTIONS_PER_SECOND);
        await sleep(SECONDS * 1000);
        members.stopReacting();
        const use = cpu.stop();
        const to = wall();
        const loop = await loopBlockMs(serverUrl);
        const bets = summariseIntervals(bettorsProcess.drainIntervals()).get("bet");
        await members.reactionsSettled(5000);
        reacting = { bets, use, counts: members.take(), loop, at: { from, to } };
      }
    }
    const { stats, seconds: allSeconds } = await collect([bettorsProcess]);

    // Tonight's delivery, once the bets stopped and every member's board counts every round (or 5 s).
    let tonightFeed: Awaited<ReturnType<InstanceMembers["tonightDelays"]>> | undefined;
    let tonightReacting: typeof tonightFeed;
    let alone: { quiet: typeof betUse; use: typeof betUse; counts: WindowCounts; loop: number } | undefined;
    if (members && feed) {
      await members.boardsCaughtUp(db.url, 5000);
      tonightFeed = await members.tonightDelays(db.url, feed.at.from, feed.at.to);
      if (reacting) tonightReacting = await members.tonightDelays(db.url, reacting.at.from, reacting.at.to);
      if (REACTIONS_PER_SECOND > 0) {
        // Reactions alone: a quiet window (everyone connected, nothing sent), then the same length reacting.
        const quietCpu = await meter();
        quietCpu.start();
        await sleep(SECONDS * 1000);
        const quiet = quietCpu.stop();
        members.reset();
        const cpu = await meter();
        await loopBlockMs(serverUrl);
        cpu.start();
        members.startReacting(REACTIONS_PER_SECOND);
        await sleep(SECONDS * 1000);
        members.stopReacting();
        const use = cpu.stop();
        const loop = await loopBlockMs(serverUrl);
        await members.reactionsSettled(5000);
        alone = { quiet, use, counts: members.take(), loop };
      }
      await members.leave();
    }
    const bets = plain;
    const seconds = SECONDS;
    const connectedAtEnd = loads.reduce((n, l) => n + (l.last?.inRoom ?? 0), 0) + BETTORS;

    console.log(
      `machine: ${machine()}, PostgreSQL ${db.version}; server: 1 process, ${redis ? "Redis presence and driver" : "no REDIS_URL (in-memory stand-in)"}`,
    );
    console.log(`connections: ${joined} (${failed} failed); ${connectedAtEnd} still connected at the end`);
    console.log(
      `server RSS: ${mib(rssBefore)} before, ${mib(rssAfter)} with everyone connected = ${f(perConnection / 1024, 1)} KiB per connection`,
    );
    console.log(
      `server CPU with all idle: ${f(idleUse.server, 3)} cores (its PostgreSQL backends ${f(idleUse.postgres, 3)}, whole machine ${f(idleUse.machine)})`,
    );
    console.log(`load processes: ${ready.length}, ${mib(loadRss)} RSS together`);
    printBaseline(baseline);
    console.log(
      `bets at ${BET_RATE}/s offered by ${BETTORS} of the connected players: ${bets?.count ?? 0} in ${f(seconds, 1)} s = ${f((bets?.count ?? 0) / seconds, 0)} bets/s, ${stats.errorCount} errors${stats.errorCount ? ` ${JSON.stringify(Object.fromEntries(stats.errors))}` : ""}`,
    );
    if (bets) console.log(`bet latency p50 ${f(bets.p50)} ms, p90 ${f(bets.p90)} ms, p99 ${f(bets.p99)} ms, max ${f(bets.max)} ms`);
    console.log(
      `CPU while betting (cores busy of 2): server ${f(betUse.server)}, load processes ${f(betUse.load)}, PostgreSQL backends ${f(betUse.postgres)}, whole machine ${f(betUse.machine)}; load average ${loadBefore.map((l) => f(l)).join(" ")}`,
    );
    console.log(`server event loop while betting: blocked ${f(betLoop, 0)} ms at most`);
    const perBet = (use: Record<string, number>, n: number) => (use.server * 1000 * SECONDS) / Math.max(1, n);
    const plainCount = bets?.count ?? 0;
    const alonePerBet = perBet(baseline.use, baseline.bets?.count ?? 0);
    const crowdPerBet = perBet(betUse, plainCount);
    if (feed) {
      const n = feed.bets?.count ?? 0;
      console.log(
        `with the feed: ${BETTORS} instances of ${FEED_VIEWERS} (${feed.viewers} together-room connections): ${n} bets in ${SECONDS} s = ${f(n / SECONDS, 0)} bets/s, ${feed.rows} feed rows delivered = ${f(feed.rows / Math.max(1, n))} per bet`,
      );
      if (feed.bets) {
        console.log(
          `bet latency with the feed p50 ${f(feed.bets.p50)} ms, p90 ${f(feed.bets.p90)} ms, p99 ${f(feed.bets.p99)} ms, max ${f(feed.bets.max)} ms`,
        );
      }
      console.log(
        `CPU with the feed (cores busy of 2): server ${f(feed.use.server)}, load processes ${f(feed.use.load)}, PostgreSQL backends ${f(feed.use.postgres)}, whole machine ${f(feed.use.machine)}; load average ${feed.load.map((l) => f(l)).join(" ")}`,
      );
      const without = perBet(betUse, plainCount);
      const withFeed = perBet(feed.use, n);
      console.log(
        `server CPU per bet: ${f(without, 3)} ms without the feed, ${f(withFeed, 3)} ms with it: fan-out to ${FEED_VIEWERS} viewers costs ${f(withFeed - without, 3)} ms per bet (${f((withFeed - without) / FEED_VIEWERS, 3)} ms per delivery)`,
      );
      const pgPerBet = (use: Record<string, number>, count: number) => (use.postgres * 1000 * SECONDS) / Math.max(1, count);
      console.log(
        `  (that fan-out is the feed row and the Tonight board, both sent for every settled bet; PostgreSQL CPU per bet ${f(pgPerBet(betUse, plainCount), 3)} ms without, ${f(pgPerBet(feed.use, n), 3)} ms with: the board is brought up to date from the database at most every ${TONIGHT_PUSH_MS} ms per instance, read whole every ${TONIGHT_FULL_READ_MS / 1000} s)`,
      );
      console.log(`server event loop with the feed: blocked ${f(feed.loop, 0)} ms at most`);
      if (tonightFeed) printTonight("with the feed", feed.counts, n, tonightFeed);
    }
    if (feed && reacting) {
      const n = reacting.bets?.count ?? 0;
      console.log(
        `with reactions: one member of each of ${BETTORS} instances reacting ${REACTIONS_PER_SECOND}/s while the bets go on: ${n} bets in ${SECONDS} s`,
      );
      if (reacting.bets) {
        console.log(
          `bet latency with the feed and reactions p50 ${f(reacting.bets.p50)} ms, p90 ${f(reacting.bets.p90)} ms, p99 ${f(reacting.bets.p99)} ms, max ${f(reacting.bets.max)} ms`,
        );
      }
      printReactions(reacting.counts);
      console.log(
        `CPU with the feed and reactions (cores busy of 2): server ${f(reacting.use.server)}, load processes ${f(reacting.use.load)}, this bench's process (the members) ${f(reacting.use.bench)}, PostgreSQL backends ${f(reacting.use.postgres)}, whole machine ${f(reacting.use.machine)}`,
      );
      // The phase's bets at the feed phase's server CPU per bet; what is left is put on the reactions.
      const extra =
        (reacting.use.server * 1000 * SECONDS - perBet(feed.use, feed.bets?.count ?? 0) * n) / Math.max(1, reacting.counts.reactionsEchoed);
      console.log(
        `server CPU beyond the phase's bets (at the feed phase's ${f(perBet(feed.use, feed.bets?.count ?? 0), 3)} ms per bet): ${f(extra, 3)} ms per reaction (${f(reacting.use.server, 3)} cores against ${f(feed.use.server, 3)} with the feed alone; within the windows' spread, see reactions alone below)`,
      );
      console.log(`server event loop with the feed and reactions: blocked ${f(reacting.loop, 0)} ms at most`);
      if (tonightReacting) printTonight("with reactions", reacting.counts, n, tonightReacting);
    }
    if (alone) {
      console.log(
        `reactions alone (the bettors stopped, ${feed?.viewers ?? 0} members connected), ${REACTIONS_PER_SECOND}/s per instance:`,
      );
      printReactions(alone.counts);
      const perReaction = ((alone.use.server - alone.quiet.server) * 1000 * SECONDS) / Math.max(1, alone.counts.reactionsEchoed);
      console.log(
        `server CPU: ${f(alone.quiet.server, 3)} cores quiet, ${f(alone.use.server, 3)} reacting = ${f(perReaction, 3)} ms per reaction (${f(perReaction / Math.max(1, FEED_VIEWERS), 3)} ms per member it reaches); PostgreSQL backends ${f(alone.quiet.postgres, 3)} and ${f(alone.use.postgres, 3)}, whole machine ${f(alone.quiet.machine)} and ${f(alone.use.machine)}`,
      );
      console.log(`server event loop with reactions alone: blocked ${f(alone.loop, 0)} ms at most`);
    }
    const withFeedPerBet = feed ? perBet(feed.use, feed.bets?.count ?? 0) : null;
    console.log(
      `server CPU per bet against the ${BETTORS} bettors alone (${f(alonePerBet, 3)} ms): ${f(crowdPerBet / Math.max(1e-9, alonePerBet))}x with ${joined} connected (${f(crowdPerBet, 3)} ms)${withFeedPerBet === null ? "" : `, ${f(withFeedPerBet / Math.max(1e-9, alonePerBet))}x with the feed on (${f(withFeedPerBet, 3)} ms)`}`,
    );
    // What grows with the crowd without any bet (pings, timers, a larger heap) against what a bet costs.
    const idlePerBet = (idleUse.server * 1000 * SECONDS) / Math.max(1, plainCount);
    console.log(
      `of which the idle crowd's own CPU (${f(idleUse.server, 3)} cores with nobody betting): ${f(idlePerBet, 3)} ms per bet; the rest, ${f(crowdPerBet - idlePerBet, 3)} ms per bet = ${f((crowdPerBet - idlePerBet) / Math.max(1e-9, alonePerBet))}x the bettors alone`,
    );
    console.log(`whole run: ${stats.summary("bet")?.count ?? 0} bets in ${f(allSeconds, 1)} s`);
    const idleStats = await collect(loads);
    loads.length = 0;
    const joinErrors = Object.fromEntries([...idleStats.stats.errors].filter(([code]) => code.startsWith("join")));
    if (Object.keys(joinErrors).length > 0) console.log(`join failures by code: ${JSON.stringify(joinErrors)}`);
  } finally {
    for (const l of loads) l.kill();
    await server?.stop();
    await db.drop();
    await redis?.release();
  }
}

/** The bettors' load process: `BETTORS` players from token `firstIndex` on, together at `BET_RATE` once told to go. */
function bettorsLoad(url: string, tokens: string[], firstIndex: number): LoadProcess {
  return new LoadProcess(
    {
      url,
      players: BETTORS,
      rampSeconds: Math.min(5, RAMP),
      scenario: fileURLToPath(new URL("./scenarios/steady-bets.ts", import.meta.url)),
      tokens,
      betRate: 20,
      restPerMinute: 600,
      ignoreLimits: false,
      timeoutMs: 30_000,
      gated: true,
      firstIndex,
    },
    { ...process.env, BENCH_BET_INTERVAL_MS: String((1000 * BETTORS) / BET_RATE) },
  );
}

/**
 * The baseline: the same bets (BETTORS players, BET_RATE a second, SECONDS long) with only those
 * players connected, before anyone else joins; the players are extra guests (tokens from CONNECTIONS
 * on), who leave once it is measured. The server's CPU per bet here is what a crowd's is compared to.
 */
async function bettorsAlone(serverUrl: string, databaseUrl: string, serverPid: number, tokens: string[]) {
  const bettors = bettorsLoad(serverUrl, tokens, CONNECTIONS);
  const ready = await bettors.whenReady();
  bettors.post({ type: "go" });
  await sleep(3000);
  bettors.post({ type: "reset" });
  const cpu = new CpuMeter({ server: [serverPid], load: [bettors.pid], postgres: await backendPids(databaseUrl) });
  await loopBlockMs(serverUrl);
  cpu.start();
  bettors.drainIntervals();
  await sleep(SECONDS * 1000);
  const use = cpu.stop();
  const loop = await loopBlockMs(serverUrl);
  const bets = summariseIntervals(bettors.drainIntervals()).get("bet");
  const { stats } = await collect([bettors]);
  return { joined: ready.joined, bets, use, loop, errors: stats.errorCount };
}

function printBaseline(b: Awaited<ReturnType<typeof bettorsAlone>>): void {
  const n = b.bets?.count ?? 0;
  console.log(
    `baseline, only the ${b.joined} bettors connected: ${n} bets in ${SECONDS} s = ${f(n / SECONDS, 0)} bets/s, ${b.errors} errors; server CPU ${f(b.use.server)} cores = ${f((b.use.server * 1000 * SECONDS) / Math.max(1, n), 3)} ms per bet (PostgreSQL backends ${f(b.use.postgres)}, whole machine ${f(b.use.machine)})`,
  );
  if (b.bets)
    console.log(`baseline bet latency p50 ${f(b.bets.p50)} ms, p90 ${f(b.bets.p90)} ms, p99 ${f(b.bets.p99)} ms, max ${f(b.bets.max)} ms`);
  console.log(`server event loop in the baseline: blocked ${f(b.loop, 0)} ms at most`);
}

/**
 * Puts each bettor (token `idle + k`) in activity instance `bench-k` with `viewers - 1` idle players,
 * as a launch in a Discord call records a join (a verified row per member), and signs each member a session token as a Discord
 * player (the together room admits no guest to an instance). Returns every member's token and instance.
 */
async function feedMembers(databaseUrl: string, tokens: string[], idle: number, bettors: number, viewers: number) {
  const sessions = new SessionTokens(SECRET, 24 * 3600);
  const sub = (token: string) => JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as { sub: string; did: string };
  const members: { instanceId: string; playerId: string; token: string }[] = [];
  for (let k = 0; k < bettors; k++) {
    const instanceId = `bench-${k}`;
    const indexes = [idle + k, ...Array.from({ length: viewers - 1 }, (_, j) => k * (viewers - 1) + j)];
    for (const i of indexes) {
      const { sub: playerId, did } = sub(tokens[i]!);
      members.push({ instanceId, playerId, token: await sessions.issue({ playerId, discordId: did, guest: false }) });
    }
  }
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    await c.query(
      `INSERT INTO activity_instance_members (instance_id, player_id, verified) SELECT * FROM unnest($1::text[], $2::uuid[], $3::bool[])`,
      [members.map((m) => m.instanceId), members.map((m) => m.playerId), members.map(() => true)],
    );
  } finally {
    await c.end();
  }
  return members;
}

/**
 * The longest block of the server's event loop since the previous call, in ms: its `/metrics` read of
 * node's delay histogram (sampled every 20 ms, reset by each read), less the sampling timer's own 20 ms.
 */
async function loopBlockMs(serverUrl: string): Promise<number> {
  const res = await fetch(`${serverUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await res.text();
  const m = /^nodejs_eventloop_lag_max_seconds\s+(\S+)/m.exec(text);
  if (!m) throw new Error(`no nodejs_eventloop_lag_max_seconds in /metrics (HTTP ${res.status})`);
  return Math.max(0, Number(m[1]) * 1000 - 20);
}

function printReactions(c: WindowCounts): void {
  const refused = [...c.refused].map(([code, n]) => `${code} ${n}`).join(", ") || "none";
  console.log(
    `reactions: ${c.reactionsSent} sent, ${c.reactionsEchoed} echoed to their sender, refused: ${refused}, unanswered: ${c.reactionsUnanswered}; delivered to the other members ${c.reactionDelays.length} of ${c.reactionDeliveriesOwed} owed (${c.reactionDeliveriesOwed - c.reactionDelays.length} lost)`,
  );
  const p = percentiles(c.reactionDelays);
  if (p)
    console.log(`reaction fan-out, sending to each other member's arrival: p50 ${f(p.p50)} ms, p99 ${f(p.p99)} ms, max ${f(p.max)} ms`);
  if (c.errors.size > 0) console.log(`other errors pushed to the members: ${JSON.stringify(Object.fromEntries(c.errors))}`);
}

function printTonight(phase: string, c: WindowCounts, bets: number, t: { rounds: number; delays: number[]; missed: number }): void {
  console.log(
    `Tonight ${phase}: ${c.boardPushes} board pushes received by the members = ${f(c.boardPushes / Math.max(1, bets))} per settled bet (${bets} bets answered in the window)`,
  );
  const p = percentiles(t.delays);
  console.log(
    `Tonight delivery, a round's record to the first board of each member counting it: ${t.delays.length} of ${t.rounds * FEED_VIEWERS} (${t.rounds} rounds x ${FEED_VIEWERS} members), ${t.missed} never shown${p ? `; p50 ${f(p.p50)} ms, p99 ${f(p.p99)} ms, max ${f(p.max)} ms` : ""}`,
  );
}

await main();
process.exit(0);
