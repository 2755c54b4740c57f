import { readFileSync, realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { z } from "zod";
import {
  CRASH_CHAIN_SALT,
  DAILY_SPIN,
  describeCrashCashOut,
  formatVerification,
  GameRuleError,
  isRoundingRule,
  verifyRound,
  type VerifyRequest,
} from "../src/index";
import { checkShoeRecord, verifyShoe, type ShoeRoundCheck, type VerifiedShoe, type VerifyShoeRequest } from "../src/verifiers/verify-shoe";
import { recordedShoeRound, type RecordedShoeRound } from "../src/games/blackjack-table";
import { cardName } from "../src/games/cards";
import { checkHoldemRecord, dealHoldemHand, describeHoldemHand, holdemHandFile, recordOfFile } from "../src/games/holdem/deck";
import { describeZodError } from "../src/validation";
import { commitmentLine } from "../src/fairness/commitment-line";
import { checkHistoryRound, historyFile, type HistoryRoundCheck } from "../src/verifiers/verify-history";

/**
 * `npm run verify -- --shoe <file.json> [--server-seed-hash …] [--json]`: a whole shoe of the shared
 * blackjack table, from its record as `GET /api/tables/shoes/:id` answers it (docs/fairness.md section 7).
 *
 * `npm run verify -- --history <file.json> [--json]`: every revealed round of a player's history, as
 * `GET /api/player/:id/history` answers it, re-derived and compared with the record.
 *
 * `npm run verify -- --server-seed … --client-seed … --nonce … --game … [--amount …] [--params '{json}']
 * [--actions '[json]'] [--rounding 1|2] [--server-seed-hash …] [--json]`: re-derives a round offline from the common
 * engines and prints it step by step. Exit code 0 when verified, 1 when the server seed does not match
 * the given hash, 2 when the request itself is wrong.
 */
const USAGE = `usage: npm run verify -- --server-seed <hex> --client-seed <text> --nonce <n> --game <id|${DAILY_SPIN}>
         [--amount <coins>] [--params '<json>'] [--actions '<json array>'] [--rounding <1|2>]
         [--server-seed-hash <hex>] [--json]

  --amount is the opening bet (table games take it from the chips in --params when left out)
  --actions lists the round's actions after the bet, e.g. '[{"type":"hit"},{"type":"stand"}]'
  --rounding is the round's rounding rule, as its history row states it (1, rounded down, when left out:
    rounds played before rules were recorded; 2, unbiased, for rounds played since)
  --server-seed-hash checks the revealed seed against the hash shown before the round
  --json prints the verification as JSON

       npm run verify -- --history <history.json> [--json]

  --history re-derives every round of a history page (GET /api/player/:id/history) whose server seed
    is revealed and compares each with the record (exit code 1 if one differs)

       npm run verify -- --shoe <record.json> [--server-seed-hash <hex>] [--json]

  --shoe re-derives a whole shoe of the blackjack table from its record (GET /api/tables/shoes/:id)
    and, when the record holds its outcomes, compares every round with them (exit code 1 if one differs)

       npm run verify -- --holdem-hand <record.json> [--server-seed-hash <hex>] [--json]

  --holdem-hand deals a hand of the Hold'em table again from its record (docs/fairness.md section 8)
    and, when the record holds its outcome, compares the board, hole cards and stacks (exit code 1 if
    one differs)

A cash-out in the shared crash room (docs/fairness.md section 4):
       npm run verify -- --crash-game-hash <hex> --player <id> --amount <coins> --cashed-out-at <x.xx>
         [--rounding <1|2>] [--terminating-hash <hex> --chain-length <n> [--salt <text>]]

  --player is the player's id (the room's bets list it); --cashed-out-at the multiplier, e.g. 1.98
  --terminating-hash and --chain-length check the game against the room's commitment and crash point`;

class UsageError extends Error {}

function json(name: string, text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--${name} is not valid JSON: ${(e as Error).message}`);
  }
}

type Parsed =
  { request: VerifyRequest; asJson: boolean } | { shoe: VerifyShoeRequest; outcomes: RecordedShoeRound[] | null; asJson: boolean };

function request(argv: string[]): Parsed | "help" {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      "server-seed": { type: "string" },
      "server-seed-hash": { type: "string" },
      "client-seed": { type: "string" },
      nonce: { type: "string" },
      game: { type: "string" },
      amount: { type: "string" },
      params: { type: "string" },
      actions: { type: "string" },
      rounding: { type: "string" },
      shoe: { type: "string" },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) return "help";
  if (values.shoe !== undefined) {
    let text: string;
    try {
      text = readFileSync(values.shoe, "utf8");
    } catch (e) {
      throw new UsageError(`--shoe: cannot read ${values.shoe}: ${(e as Error).message}`);
    }
    const record = json("shoe", text) as VerifyShoeRequest & { outcomes?: unknown };
    // The server's answer also holds what each round's settlement recorded: compared when present.
    let outcomes: RecordedShoeRound[] | null = null;
    if (record.outcomes !== undefined) {
      const parsedOutcomes = z.array(recordedShoeRound).safeParse(record.outcomes);
      if (!parsedOutcomes.success) throw new UsageError(`--shoe: outcomes: ${describeZodError(parsedOutcomes.error)}`);
      outcomes = parsedOutcomes.data;
    }
    return {
      asJson: values.json,
      outcomes,
      shoe: { ...record, serverSeedHash: values["server-seed-hash"] ?? record.serverSeedHash },
    };
  }
  const missing = (["server-seed", "client-seed", "nonce", "game"] as const).filter((k) => values[k] === undefined);
  if (missing.length) throw new UsageError(`missing ${missing.map((k) => `--${k}`).join(", ")}`);
  const whole = (name: string, text: string) => {
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text)))
      throw new UsageError(`--${name} must be a whole number, not ${JSON.stringify(text)}`);
    return Number(text);
  };
  const actions = json("actions", values.actions);
  if (actions !== undefined && !Array.isArray(actions)) throw new UsageError("--actions must be a JSON array");
  const rounding = values.rounding === undefined ? undefined : Number(values.rounding);
  if (rounding !== undefined && !isRoundingRule(rounding)) throw new UsageError("--rounding must be 1 or 2");
  return {
    asJson: values.json,
    request: {
      serverSeed: values["server-seed"]!,
      serverSeedHash: values["server-seed-hash"],
      clientSeed: values["client-seed"]!,
      nonce: whole("nonce", values.nonce!),
      game: values.game!,
      amount: values.amount === undefined ? undefined : whole("amount", values.amount),
      params: json("params", values.params),
      actions: actions as unknown[] | undefined,
      rounding,
    },
  };
}

/** The crash-room mode: exit 0 when it checks out, 1 when the game is not in the chain or above its bust. */
function crashRoom(argv: string[]): number {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      "crash-game-hash": { type: "string" },
      player: { type: "string" },
      amount: { type: "string" },
      "cashed-out-at": { type: "string" },
      rounding: { type: "string", default: "2" },
      "terminating-hash": { type: "string" },
      "chain-length": { type: "string" },
      salt: { type: "string", default: CRASH_CHAIN_SALT },
    },
  });
  const missing = (["crash-game-hash", "player", "amount", "cashed-out-at"] as const).filter((k) => values[k] === undefined);
  if (missing.length) throw new UsageError(`missing ${missing.map((k) => `--${k}`).join(", ")}`);
  const rounding = Number(values.rounding);
  if (!isRoundingRule(rounding)) throw new UsageError("--rounding must be 1 or 2");
  const amount = Number(values.amount);
  if (!Number.isSafeInteger(amount) || amount < 1) throw new UsageError("--amount must be a whole number of coins");
  if (!/^\d+(\.\d{1,2})?$/.test(values["cashed-out-at"]!)) throw new UsageError("--cashed-out-at must be a multiplier like 1.98");
  const cashedOutAt = Math.round(Number(values["cashed-out-at"]) * 100);
  const hasChain = values["terminating-hash"] !== undefined;
  if (hasChain !== (values["chain-length"] !== undefined)) throw new UsageError("--terminating-hash and --chain-length go together");
  const chain = hasChain
    ? { terminatingHash: values["terminating-hash"]!, salt: values.salt!, length: Number(values["chain-length"]) }
    : undefined;
  const { lines, verified } = describeCrashCashOut(
    rounding,
    { gameHash: values["crash-game-hash"]!.toLowerCase(), playerId: values.player!, amount, cashedOutAt },
    chain,
  );
  console.log(lines.join("\n"));
  return verified ? 0 : 1;
}

/** The Hold'em mode: exit 0 when the hand checks out, 1 when the commitment or the recorded outcome differs. */
function holdemHand(argv: string[]): number {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: { "holdem-hand": { type: "string" }, "server-seed-hash": { type: "string" }, json: { type: "boolean", default: false } },
  });
  let text: string;
  try {
    text = readFileSync(values["holdem-hand"]!, "utf8");
  } catch (e) {
    throw new UsageError(`--holdem-hand: cannot read ${values["holdem-hand"]}: ${(e as Error).message}`);
  }
  const parsed = holdemHandFile.safeParse(json("holdem-hand", text));
  if (!parsed.success) throw new UsageError(`--holdem-hand: ${describeZodError(parsed.error)}`);
  const record = recordOfFile(parsed.data);
  const dealt = dealHoldemHand({ ...record, serverSeedHash: values["server-seed-hash"] ?? record.serverSeedHash });
  const problems = parsed.data.outcome ? checkHoldemRecord(dealt, parsed.data.outcome) : null;
  if (values.json) console.log(JSON.stringify({ ...dealt, record: problems }, null, 2));
  else {
    const lines = describeHoldemHand(dealt);
    if (problems) lines.push(problems.length ? `the record DOES NOT MATCH: ${problems.join("; ")}` : "the hand matches the record");
    console.log(lines.join("\n"));
  }
  return dealt.commitment.matches === false || (problems !== null && problems.length > 0) ? 1 : 0;
}

/** The history mode: exit 0 when every revealed round matches its record, 1 when one does not. */
function history(argv: string[]): number {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: { history: { type: "string" }, json: { type: "boolean", default: false } },
  });
  let text: string;
  try {
    text = readFileSync(values.history!, "utf8");
  } catch (e) {
    throw new UsageError(`--history: cannot read ${values.history}: ${(e as Error).message}`);
  }
  const parsed = historyFile.safeParse(json("history", text));
  if (!parsed.success) throw new UsageError(`--history: ${describeZodError(parsed.error)}`);
  const checks = parsed.data.map(checkHistoryRound);
  if (values.json)
    console.log(
      JSON.stringify(
        checks.map((c) => ({
          id: c.item.id,
          gameType: c.item.gameType,
          skipped: c.skipped,
          problems: c.problems,
          commitment: c.verification?.commitment ?? null,
          summary: c.verification?.summary ?? null,
        })),
        null,
        2,
      ),
    );
  else console.log(formatHistory(checks));
  return checks.some((c) => c.problems.length > 0) ? 1 : 0;
}

/** Each row of a history, verified: its re-derivation and whether it matches the record, then a count. */
function formatHistory(checks: HistoryRoundCheck[]): string {
  const lines: string[] = [];
  for (const c of checks) {
    lines.push(`== ${c.item.createdAt} ${c.item.gameType} (${c.item.id})`);
    if (c.skipped) lines.push(`skipped: ${c.skipped}`);
    if (c.verification) lines.push(formatVerification(c.verification));
    if (!c.skipped) lines.push(c.problems.length ? `record: DOES NOT MATCH (${c.problems.join("; ")})` : "record: matches");
    lines.push("");
  }
  const derived = checks.filter((c) => !c.skipped);
  const differ = derived.filter((c) => c.problems.length > 0).length;
  const skipped = checks.length - derived.length;
  lines.push(
    `${derived.length} round${derived.length === 1 ? "" : "s"} re-derived: ${differ === 0 ? "every one matches the record" : `${differ} DO NOT MATCH the record`}` +
      (skipped ? `; ${skipped} skipped` : ""),
  );
  return lines.join("\n");
}

/** Runs a mode of the command; a bad request is explained with the usage (exit 2). */
function orUsage(run: () => number): number {
  try {
    return run();
  } catch (e) {
    console.error(`${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
}

/** The command on its arguments: prints what it found and answers the exit code. */
export function main(argv: string[]): number {
  if (argv.includes("--history")) return orUsage(() => history(argv));
  if (argv.includes("--holdem-hand")) return orUsage(() => holdemHand(argv));
  if (argv.includes("--crash-game-hash")) return orUsage(() => crashRoom(argv));
  let parsed: ReturnType<typeof request>;
  try {
    parsed = request(argv);
  } catch (e) {
    console.error(`${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (parsed === "help") {
    console.log(USAGE);
    return 0;
  }
  try {
    if ("shoe" in parsed) {
      const verified = verifyShoe(parsed.shoe);
      const checks = parsed.outcomes === null ? null : checkShoeRecord(verified, parsed.outcomes);
      console.log(
        parsed.asJson
          ? JSON.stringify(checks === null ? verified : { ...verified, record: checks }, null, 2)
          : formatShoe(verified, checks),
      );
      const recordDiffers = checks !== null && checks.some((c) => c.matches !== true);
      return verified.commitment.matches === false || recordDiffers ? 1 : 0;
    }
    const verification = verifyRound(parsed.request);
    console.log(parsed.asJson ? JSON.stringify(verification, null, 2) : formatVerification(verification));
    return verification.commitment.matches === false ? 1 : 0;
  } catch (e) {
    if (e instanceof GameRuleError) {
      console.error(`cannot verify this round: ${e.message} (${e.code})`);
      return 2;
    }
    throw e;
  }
}

/** A verified shoe, round by round: the cards (their positions in the shoe), the dealer, each seat. */
function formatShoe(v: VerifiedShoe, checks: ShoeRoundCheck[] | null): string {
  const cards = (list: readonly number[]) => list.map(cardName).join(" ");
  const lines = [
    `server seed hash: ${v.commitment.serverSeedHash}`,
    commitmentLine(v.commitment, "the shoe's first round", "no --server-seed-hash"),
    `table client seed: ${v.tableClientSeed}`,
  ];
  v.rounds.forEach((r, i) => {
    lines.push(
      "",
      `round ${r.round}: cards ${r.cards[0]}–${r.cards[1] - 1}, dealer ${cards(r.dealer)}${r.dealerBlackjack ? " (blackjack)" : ""}`,
    );
    const check = checks?.[i];
    if (check) lines.push(`  record: ${check.matches ? "matches" : `DOES NOT MATCH (${describeCheck(check)})`}`);
    for (const s of r.seats) {
      const hands = s.hands.map((h) => `${cards(h.cards)} ${h.result ?? ""}`.trim()).join(" | ");
      const insurance = s.insurance && s.insurance.stake > 0 ? `, insurance ${s.insurance.stake}` : "";
      lines.push(`  seat ${s.seat}: ${hands}${insurance}; staked ${s.staked}, paid ${s.payout}`);
    }
  });
  lines.push(
    "",
    v.complete
      ? "the shoe is complete: its last round was dealt past the cut card"
      : `${v.rounds.length} rounds (the shoe ended before its cut card)`,
  );
  if (checks) {
    const differ = checks.filter((c) => c.matches !== true).length;
    lines.push(differ === 0 ? "every round matches the record" : `${differ} of ${checks.length} rounds DO NOT MATCH the record`);
  }
  return lines.join("\n");
}

/** What differs in a round from its record: "dealer", "seat 4: recorded paid 17", "not recorded". */
function describeCheck(check: ShoeRoundCheck): string {
  if (check.matches === null) return "not recorded";
  const parts = check.dealer === false ? ["dealer: other cards recorded"] : [];
  for (const s of check.seats) if (s.problem) parts.push(`seat ${s.seat}: ${s.problem}`);
  return parts.join("; ");
}

// Run as a command (not imported, as the tests import `main`).
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href)
  process.exitCode = main(process.argv.slice(2));
