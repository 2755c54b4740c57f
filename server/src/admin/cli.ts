import "reflect-metadata";
import { writeFileSync } from "node:fs";
import { userInfo } from "node:os";
import { pathToFileURL } from "node:url";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { MINIMUM_AGE, describeZodError, requestId as requestIdSchema } from "@casino/common";
import { ConfigError, bootLogSettings, loadConfig, logSettings, type Config } from "../platform/config";
import { Log } from "../platform/log";
import { AppError } from "../platform/errors";
import { Adjustments, MAX_ADJUSTMENT, type AdjustmentKind } from "./adjustments";
import { requireReason } from "./admin-actions";
import { openAdminContext, type AdminContext } from "./context";
import { findPlayers, playerDetails, resolvePlayer, type PlayerView } from "./player-lookup";
import { SUGGESTION_STATUSES, listSuggestions, markSuggestion, type SuggestionStatus } from "./suggestions";
import { setAccountStatus } from "./accounts";
import { erasePlayer, exportPlayer } from "./privacy";
import { houseResults, mintedBySource } from "../core/economy";

/**
 * `npm run admin -- <command>`: the operator's tools, against the deployment's DATABASE_URL (and
 * REDIS_URL, through which the running servers hear of a change at once and the boards are rebuilt).
 * Every change is written with who made it (`--by`, by default the login name) and why (`--reason`)
 * in `admin_actions`, in the transaction of the change. `--json` prints machine-readable answers.
 * Exit code 0: done (or nothing to do); 1: refused, with the reason on stderr; 2: failed.
 */
interface GlobalOptions {
  by: string;
  json: boolean;
  embedded: boolean;
}

/** Builds the command line: a program of its own per run (commander keeps what it parsed). */
function adminProgram(): Command {
  const program = new Command("admin")
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.out(text), writeErr: (text) => io.err(text) })
    .description("Operator tools of the casino: suggestions, players, coins, suspensions, data export and erasure, the economy's reports")
    .option("--by <operator>", "who is acting (kept with every change)", defaultOperator())
    .option("--json", "print answers as JSON", false)
    .option("--embedded", "allow the embedded PGlite database (no DATABASE_URL): only with the server stopped", false)
    .showHelpAfterError();

  const positiveInt =
    (label: string, max = Number.MAX_SAFE_INTEGER) =>
    (text: string) => {
      const n = Number(text);
      if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < 1 || n > max)
        throw new InvalidArgumentError(`${label} must be a whole number from 1 to ${max}`);
      return n;
    };
  const requestIdArg = (text: string) => {
    const parsed = requestIdSchema.safeParse(text);
    if (!parsed.success) throw new InvalidArgumentError(describeZodError(parsed.error));
    return parsed.data;
  };

  const suggestions = program.command("suggestions").description("read and mark what players sent through the Suggestions box");
  suggestions
    .command("list")
    .description("list suggestions, oldest first, with who sent them")
    .addOption(new Option("--status <status>", "which ones").choices([...SUGGESTION_STATUSES, "all"]).default("new"))
    .option("--limit <n>", "at most this many", positiveInt("--limit", 10_000), 50)
    .action(async (o: { status: SuggestionStatus | "all"; limit: number }, cmd: Command) =>
      run(cmd, async (ctx, print) => {
        const list = await listSuggestions(ctx.db, o.status, o.limit);
        print(list, () =>
          list.length === 0
            ? [`no suggestions (${o.status})`]
            : list.flatMap((s) => [
                `#${s.id}  ${s.at}  [${s.status}${s.markedBy ? ` by ${s.markedBy}` : ""}]  from ${s.username} (player ${s.playerId}, Discord ${s.discordId})`,
                ...s.text.split("\n").map((line) => `    ${line}`),
              ]),
        );
      }),
    );
  suggestions
    .command("mark")
    .description("mark suggestions read or done (or new again)")
    .argument("<ids...>", "suggestion ids", (text: string, all: number[] = []) => [...all, positiveInt("a suggestion id")(text)])
    .addOption(new Option("--as <status>", "the new status").choices([...SUGGESTION_STATUSES]).makeOptionMandatory())
    .option("--note <text>", "a note kept with the change")
    .action(async (ids: number[], o: { as: SuggestionStatus; note?: string }, cmd: Command) =>
      run(cmd, async (ctx, print) => {
        const marked: Awaited<ReturnType<typeof markSuggestion>>[] = [];
        for (const id of ids) marked.push(await markSuggestion(ctx.db, id, o.as, ctx.operator, o.note));
        print(marked, () => marked.map((m) => `#${m.id}: ${m.from} → ${m.to}`));
      }),
    );

  program
    .command("find")
    .description("find players by player id, Discord id, or a part of their name")
    .argument("<text>")
    .option("--limit <n>", "at most this many", positiveInt("--limit", 1000), 20)
    .action(async (text: string, o: { limit: number }, cmd: Command) =>
      run(cmd, async (ctx, print) => {
        const found = await findPlayers(ctx.db, text, o.limit);
        print(found, () => (found.length === 0 ? [`no player matches "${text}"`] : found.map(playerLine)));
      }),
    );

  program
    .command("show")
    .description("a player's balance, latest ledger entries and rounds, open round, and operators' actions")
    .argument("<player>", "player id or Discord id")
    .option("--ledger <n>", "ledger entries shown", positiveInt("--ledger", 10_000), 20)
    .option("--rounds <n>", "rounds shown", positiveInt("--rounds", 10_000), 20)
    .action(async (ref: string, o: { ledger: number; rounds: number }, cmd: Command) =>
      run(cmd, async (ctx, print) => {
        const d = await playerDetails(ctx.db, ref, { ledger: o.ledger, rounds: o.rounds });
        print(d, () => [
          playerLine(d.player),
          `ledger: ${d.ledgerEntries} entries summing to ${d.ledgerSum}${d.ledgerSum === d.player.balance ? " (= balance)" : ` — NOT the balance ${d.player.balance}`}; ${d.rounds} rounds`,
          d.openRound
            ? `open round: ${d.openRound.game} ${d.openRound.id}, staked ${d.openRound.totalStake}, since ${d.openRound.since}`
            : "no open round",
          `latest ledger entries:`,
          ...d.ledger.map(
            (e) =>
              `  ${e.id}  ${e.at}  ${signed(e.delta).padStart(9)} → ${String(e.balanceAfter).padStart(9)}  ${e.reason} ${e.reference ?? ""} ${e.delta < 0 ? "to" : "from"} ${e.account}  (${e.requestId})`,
          ),
          `latest rounds:`,
          ...d.recentRounds.map((r) => `  ${r.at}  ${r.game.padEnd(16)} stake ${r.stake} payout ${r.payout} ${r.result}  (${r.id})`),
          `operators' actions:`,
          ...d.actions.map((a) => `  ${a.at}  ${a.action}${a.amount === null ? "" : ` ${a.amount}`} by ${a.operator}: ${a.reason}`),
        ]);
      }),
    );

  for (const [name, kind, description] of [
    ["grant", "grant", "add coins to a balance, through the ledger"],
    ["claw-back", "claw_back", "take coins back from a balance, through the ledger (never below 0)"],
  ] as const) {
    const command = program
      .command(name)
      .description(`${description}; idempotent by --request-id`)
      .argument("<player>", "player id or Discord id")
      .argument("<amount>", "coins", positiveInt("<amount>", MAX_ADJUSTMENT))
      .requiredOption("--reason <text>", "why (kept in the audit)")
      .requiredOption(
        "--request-id <id>",
        "a new id for this adjustment (8–64 letters, digits, _ : -); the same id again changes nothing",
        requestIdArg,
      );
    if (kind === "claw_back")
      command.option("--up-to-balance", "take the whole balance when it is smaller than the amount, instead of refusing", false);
    command.action(async (ref: string, amount: number, o: { reason: string; requestId: string; upToBalance?: boolean }, cmd: Command) =>
      run(cmd, async (ctx, print) => {
        const reason = requireReason(o.reason);
        const player = await ctx.db.run((em) => resolvePlayer(em, ref));
        const answer = await adjust(ctx, { playerId: player.id, requestId: o.requestId, kind, amount, reason, upToBalance: o.upToBalance });
        print({ playerId: player.id, ...answer }, () => [
          answer.replayed
            ? `request ${answer.requestId} was already done: ${signed(answer.delta)} then (balance ${answer.balance} then); nothing changed now`
            : `${signed(answer.delta)} coins for ${player.username} (${player.id}): balance ${answer.balance}`,
        ]);
      }),
    );
  }

  program
    .command("house")
    .description("the house's result per game: the stakes of its ended rounds less their payouts (the house:<game> accounts)")
    .action(async (_o: unknown, cmd: Command) =>
      run(cmd, async (ctx, print) => {
        const games = await houseResults(ctx.db);
        const total = games.reduce((sum, g) => sum + g.result, 0);
        print({ games, total }, () =>
          games.length === 0
            ? ["the house has no result yet"]
            : accountLines(
                games.map((g) => [g.game, g.result, ""]),
                total,
              ),
        );
      }),
    );

  program
    .command("minted")
    .description("coins minted per source: starting grants, daily spins, skill rewards, operators' grants (and claw-backs, negative)")
    .action(async (_o: unknown, cmd: Command) =>
      run(cmd, async (ctx, print) => {
        const sources = await mintedBySource(ctx.db);
        const total = sources.reduce((sum, m) => sum + m.minted, 0);
        print({ sources, total }, () =>
          sources.length === 0
            ? ["no coins minted yet"]
            : accountLines(
                sources.map((m) => [m.source, m.minted, `  in ${m.entries} entries`]),
                total,
              ),
        );
      }),
    );

  for (const [name, to, description] of [
    ["suspend", "suspended", "suspend an account: refused on REST, room joins and open connections, off the leaderboards"],
    ["restore", "active", "restore a suspended account"],
  ] as const) {
    program
      .command(name)
      .description(description)
      .argument("<player>", "player id or Discord id")
      .requiredOption("--reason <text>", "why (kept in the audit)")
      .action(async (ref: string, o: { reason: string }, cmd: Command) =>
        run(cmd, async (ctx, print) => {
          const change = await setAccountStatus(ctx, ref, to, requireReason(o.reason));
          print(change, () => [
            change.changed
              ? `${change.playerId}: ${change.from} → ${change.to}`
              : `${change.playerId} is already ${change.to}: nothing changed`,
            ...boardsLine(ctx, change.changed, change.boards),
          ]);
        }),
      );
  }

  program
    .command("export")
    .description("everything stored about a player, as JSON (the privacy policy's right to see one's data)")
    .argument("<player>", "player id or Discord id")
    .requiredOption("--reason <text>", "on whose request (kept in the audit)")
    .option("--out <file>", "write it to this file (readable by its owner only) instead of printing it")
    .action(async (ref: string, o: { reason: string; out?: string }, cmd: Command) =>
      run(cmd, async (ctx) => {
        const data = await exportPlayer(ctx, ref, requireReason(o.reason));
        const text = `${JSON.stringify(data, null, 2)}\n`;
        if (!o.out) return void io.out(text);
        writeFileSync(o.out, text, { mode: 0o600 });
        io.err(`exported ${(data.player as PlayerView).id} to ${o.out}\n`);
      }),
    );

  program
    .command("erase")
    .description("erase a player's personal data; the ledger stays, anonymised (the privacy policy's deletion)")
    .argument("<player>", "player id or Discord id")
    .requiredOption("--reason <text>", "on whose request (kept in the audit; name nobody in it)")
    .option("--under-age", `the player is a child under ${MINIMUM_AGE} (kept in the audit)`, false)
    .action(async (ref: string, o: { reason: string; underAge: boolean }, cmd: Command) =>
      run(cmd, async (ctx, print) => {
        const erasure = await erasePlayer(ctx, ref, requireReason(o.reason), o.underAge);
        print(erasure, () => [
          erasure.erased
            ? `${erasure.playerId} erased; deleted rows: ${Object.entries(erasure.deleted)
                .map(([table, n]) => `${table} ${n}`)
                .join(", ")}`
            : `${erasure.playerId} was already erased: nothing changed`,
          ...boardsLine(ctx, erasure.erased, erasure.boards),
        ]);
      }),
    );
  return program;
}

/** Adjustments through the ledger; the player's open connections hear the new balance from its announcement. */
function adjust(
  ctx: AdminContext,
  a: { playerId: string; requestId: string; kind: AdjustmentKind; amount: number; reason: string; upToBalance?: boolean },
) {
  return new Adjustments(ctx.db, ctx.announcements).adjust({ ...a, operator: ctx.operator });
}

type Print = (value: unknown, lines: () => string[]) => void;

/** Opens the database (and Redis), runs a command, prints its answer, and sets the exit code. */
async function run(cmd: Command, work: (ctx: AdminContext, print: Print) => Promise<void>): Promise<void> {
  const options = cmd.optsWithGlobals<GlobalOptions>();
  let opened: Awaited<ReturnType<typeof openAdminContext>> | undefined;
  let config: Config | undefined;
  try {
    config = loadConfig(io.env);
    if (!config.databaseUrl && !options.embedded) {
      throw new AppError(
        "embedded_database",
        400,
        `DATABASE_URL is not set: this would open the embedded PGlite database in ${config.dataDir}, which one process at a time may use. Stop the server, then run again with --embedded`,
      );
    }
    const operator = options.by.trim();
    if (operator.length === 0 || operator.length > 100) throw new AppError("invalid_operator", 400, "--by must be 1 to 100 characters");
    opened = await openAdminContext(config, operator);
    const print: Print = (value, lines) => io.out(`${options.json ? JSON.stringify(value, null, 2) : lines().join("\n")}\n`);
    await work(opened.ctx, print);
    exitCode = 0;
  } catch (error) {
    if (error instanceof AppError || error instanceof ConfigError) {
      io.err(`refused: ${error.message}${error instanceof AppError ? ` (${error.code})` : ""}\n`);
      exitCode = 1;
    } else {
      // Not a refusal: the error in full, through the log (on standard error, its secrets scrubbed).
      const log = new Log({ ...(config ? logSettings(config) : bootLogSettings()), stderr: true });
      log.error("admin-cli", "failed", error);
      log.flush();
      exitCode = 2;
    }
  } finally {
    await opened?.close().catch(() => undefined);
  }
}

function defaultOperator(): string {
  try {
    return userInfo().username;
  } catch {
    return "operator";
  }
}

const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

/** The economy reports' lines: an account's name and signed coins in columns (with a note), then the total. */
const accountLines = (rows: [name: string, coins: number, note: string][], total: number): string[] => [
  ...rows.map(([name, coins, note]) => `${name.padEnd(18)} ${signed(coins).padStart(12)}${note}`),
  `${"total".padEnd(18)} ${signed(total).padStart(12)}`,
];

const playerLine = (p: PlayerView) =>
  `${p.id}  ${p.username}  (${p.guest ? "guest" : "Discord"} ${p.discordId})  balance ${p.balance}  ${p.status}${p.archivedAt ? " (archived)" : ""}  since ${p.createdAt}, last seen ${p.lastSeenAt}`;

function boardsLine(ctx: AdminContext, changed: boolean, boards: { players: number; ms: number } | null): string[] {
  if (!changed) return [];
  if (boards) return [`leaderboards rebuilt: ${boards.players} ranked, ${(boards.ms / 1000).toFixed(2)} s`];
  return ctx.live ? [] : ["no REDIS_URL: each server rebuilds its own boards within a minute (its repair check)"];
}

/** Where a run of the command line reads its environment and writes its answers. */
export interface AdminIo {
  /** The environment the configuration is read from (the process's own when left out). */
  env?: NodeJS.ProcessEnv;
  out(text: string): void;
  err(text: string): void;
}

const processIo: AdminIo = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
};

let io: AdminIo = processIo;
let exitCode = 0;

/**
 * Runs the command line with `args` (what follows `npm run admin --`) and answers its exit code: 0
 * done, 1 refused, 2 failed. One run at a time in a process (the tests run it in theirs).
 */
export async function runAdmin(args: string[], runIo: AdminIo = processIo): Promise<number> {
  io = runIo;
  exitCode = 0;
  try {
    await adminProgram().parseAsync(args, { from: "user" });
    return exitCode;
  } catch (error) {
    // commander's own end: --help (0), or a usage error it has already explained on stderr (1)
    if (error instanceof CommanderError) return error.exitCode;
    throw error;
  } finally {
    io = processIo;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) process.exit(await runAdmin(process.argv.slice(2)));
