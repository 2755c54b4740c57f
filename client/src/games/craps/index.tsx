import { useMemo, useState, type ReactNode } from "react";
import {
  ANY_CRAPS_RETURN,
  ANY_SEVEN_RETURN,
  FIELD_RETURN,
  HARD_NUMBERS,
  HARD_RETURN,
  LAY_MULTIPLE,
  LAY_ODDS_RETURN,
  ODDS_MULTIPLE,
  PASS_ODDS_RETURN,
  PLACE_RETURN,
  POINTS,
  placeBets,
  type CrapsBetRequest,
  type CrapsParams,
  type CrapsState,
  type PointNumber,
  type SettledBet,
  type TableBet,
  type TakeDownKind,
} from "@casino/common/games/craps/engine";
import { GameRuleError } from "@casino/common/games/engine";
import { stakeProblem } from "@casino/common/bet-panel";
import type { GameTableProps } from "../contract";
import { Die } from "../shared/Dice";
import { TableFrame } from "../shared/TableFrame";
import { PayTable, type HelpContent } from "../shared/GameHelp";
import { RoundResult } from "../shared/RoundResult";
import { chipClass, chipLabel, useChips } from "../shared/chips";
import { formatCoins, formatMultiplier } from "../shared/format";
import { useRound } from "../shared/use-round";
import { useStake } from "../shared/use-stake";

const REVEAL_MS = 800;

/** A staged bet without its amount (the chips set it). */
type Spot = CrapsBetRequest extends infer B ? (B extends unknown ? Omit<B, "amount"> : never) : never;
const spotKey = (s: Spot) => ("number" in s ? `${s.type}-${s.number}` : s.type);

/** "x:1" from a [return, for] ratio that includes the stake. */
const odds = ([num, den]: readonly [number, number]) => {
  const net = num / den - 1;
  const frac = (a: number, b: number): string => {
    const gcd = (x: number, y: number): number => (y === 0 ? x : gcd(y, x % y));
    const g = gcd(a, b);
    return `${a / g}:${b / g}`;
  };
  return Number.isInteger(net) ? `${net}:1` : frac(num - den, den);
};

const BET_NAME: Record<TableBet["type"], string> = {
  pass: "Pass line",
  dontPass: "Don't pass",
  come: "Come",
  dontCome: "Don't come",
  field: "Field",
  place: "Place",
  hard: "Hard",
  anySeven: "Any seven",
  anyCraps: "Any craps",
};
const describe = (b: TableBet) => `${BET_NAME[b.type]}${b.number ? ` ${b.number}` : ""}`;
const CONTRACT = (b: TableBet, point: number | null) =>
  (b.type === "pass" && point !== null) || (b.type === "come" && b.number !== undefined);

/**
 * How many separate bets a settled round held, for its result's words: the last roll settles only the
 * bets still up, so a stake larger than any one of them means others were settled before.
 */
const betsOfRound = (stake: number, settled: SettledBet[]): number =>
  settled.some((b) => b.amount + b.odds === stake) ? settled.length : Math.max(2, settled.length);

/** The game's help: its rules and pay table. */
const HELP: HelpContent = {
  rules: (
    <ul className="list-disc space-y-1 pl-5">
      <li>
        Tap a bet on the table to put a chip on it (the chip value is set below; your new chips show in blue), then Roll: your chips go down
        and two dice are thrown. The round goes on while any of your bets is still on the table.
      </li>
      <li>
        Pass line, on the first roll: 7 or 11 wins, 2, 3 or 12 loses, and any other total becomes the point (the puck turns ON). Then the
        point rolled again wins and a 7 first loses. Don&apos;t pass is the opposite, except that 12 is a push: your bet comes back.
      </li>
      <li>
        Come and don&apos;t come work like pass and don&apos;t pass, made once a point is on; each moves to the next total rolled, its own
        point.
      </li>
      <li>
        Odds: once your pass or come bet has its point, you can add an extra bet behind it, up to {ODDS_MULTIPLE[4]}× on 4 or 10,{" "}
        {ODDS_MULTIPLE[5]}× on 5 or 9 and {ODDS_MULTIPLE[6]}× on 6 or 8; it pays the true odds, with no house edge. Behind don&apos;t pass
        or don&apos;t come the same extra bet is called lay odds, up to {LAY_MULTIPLE}×.
      </li>
      <li>
        Place bets (on a number, before a 7), hard ways (a double, as 3 and 3 for hard 6, before a 7 or the same total made another way) and
        the rest work on every roll and are settled once: a winning bet comes back with its winnings. Field, any seven and any craps are
        decided by the next roll alone.
      </li>
      <li>
        To take a bet back, press Take down beside it in the list of bets on the table. A pass or come bet cannot come back once it has its
        point (its odds can).
      </li>
    </ul>
  ),
  payTable: (
    <PayTable
      head={["Bet", "Pays"]}
      rows={[
        { label: "Pass, don't pass, come, don't come", pays: "1:1" },
        ...POINTS.filter((n) => n <= 6).map((n) => ({
          label: `Odds on ${n} or ${14 - n} (lay)`,
          pays: `${odds(PASS_ODDS_RETURN[n])} (${odds(LAY_ODDS_RETURN[n])})`,
        })),
        ...POINTS.filter((n) => n <= 6).map((n) => ({ label: `Place ${n} or ${14 - n}`, pays: odds(PLACE_RETURN[n]) })),
        { label: "Field 3, 4, 9, 10, 11", pays: odds(FIELD_RETURN[3]!) },
        { label: "Field 2 / 12", pays: `${odds(FIELD_RETURN[2]!)} / ${odds(FIELD_RETURN[12]!)}` },
        ...HARD_NUMBERS.map((n) => ({ label: `Hard ${n}`, pays: odds(HARD_RETURN[n]!) })),
        { label: "Any seven", pays: odds(ANY_SEVEN_RETURN) },
        { label: "Any craps (2, 3, 12)", pays: odds(ANY_CRAPS_RETURN) },
      ]}
    />
  ),
};

export default function CrapsTable(props: GameTableProps) {
  const { game, connection, balance } = props;
  const round = useRound<CrapsState>(props, REVEAL_MS);
  const chips = useChips<Spot>();
  const stake = useStake(game.id, balance, chips.count);
  const chip = Number.isFinite(stake.amount) ? stake.amount : 0;
  const view = round.round?.view ?? null;
  const open = round.open;
  const table: CrapsState | null = open ? open.view : null;
  const point = table?.point ?? null;
  const requestsAt = (value: number) =>
    [...chips.spots.values()].map(({ spot, chips: n }) => ({ ...spot, amount: n * value }) as CrapsBetRequest);
  const requests = useMemo<CrapsBetRequest[]>(() => requestsAt(chip), [chips.spots, chip]); // eslint-disable-line react-hooks/exhaustive-deps
  const params: CrapsParams | null = !open && chips.count > 0 ? { bets: requests } : null;
  const limits = stake.limits;

  // mid-round: the engine itself says whether the staged chips fit the table as it stands
  const stagedProblem = useMemo(() => {
    if (!table || chips.count === 0) return null;
    const amountProblem = stakeProblem(chip, limits);
    if (amountProblem) return amountProblem;
    try {
      placeBets(table, requests);
      return null;
    } catch (e) {
      if (e instanceof GameRuleError) return e.message;
      throw e;
    }
  }, [table, requests, chips.count, chip, limits]);

  // staged chips go down and the dice roll as one move of the player: busy until both are answered
  const [sequence, setSequence] = useState(false);
  const pending = round.pending || sequence;
  const ready = !!open && !pending && connection.connected;
  const rollInRound = async () => {
    setSequence(true);
    try {
      if (chips.count > 0) {
        if (stagedProblem) return;
        const placed = await round.act({ type: "bet", bets: requests });
        if (!placed) return;
        chips.clear();
      }
      await round.act({ type: "roll" });
    } finally {
      setSequence(false);
    }
  };
  const placeOnly = async () => {
    if (chips.count === 0 || stagedProblem) return;
    if (await round.act({ type: "bet", bets: requests })) chips.clear();
  };
  const openRound = async () => {
    if (!params) return;
    if (await round.bet(chip * chips.count, params)) chips.clear();
  };
  const takeDown = (bet: TakeDownKind, number?: number) =>
    void round.act(number === undefined ? { type: "takeDown", bet } : { type: "takeDown", bet, number });

  const lastRoll = view?.rolls[view.rolls.length - 1] ?? null;
  const onTable = (type: TableBet["type"], number?: number) => table?.bets.find((b) => b.type === type && b.number === number);

  const stakeSpot = (spot: Spot, enabled: boolean, children: ReactNode, className: string, extra?: ReactNode) => {
    const key = spotKey(spot);
    const staged = chips.spots.get(key);
    return (
      <button
        type="button"
        data-testid={`craps-${key}`}
        disabled={!enabled || pending}
        onClick={() => chips.add(key, spot)}
        className={`felt-spot relative flex min-w-0 flex-col items-center justify-center rounded-lg p-1 text-center text-xs font-bold disabled:cursor-not-allowed disabled:opacity-40 ${className}`}
      >
        {children}
        {extra}
        {staged && (
          <span className="absolute -right-1 -top-1" title="your new chip: it goes on the table with your next roll">
            <span className={`${chipClass("sm")} bg-sky-400`}>{chipLabel(staged.chips * chip)}</span>
          </span>
        )}
      </button>
    );
  };
  const placedChip = (b: TableBet | undefined, label = "") =>
    b ? (
      <span className="mt-0.5 flex items-center gap-0.5">
        <span className={chipClass("sm")}>{chipLabel(b.amount)}</span>
        {b.odds > 0 && <span className={`${chipClass("sm")} bg-emerald-400`}>{chipLabel(b.odds)}</span>}
        {label && <span className="text-[9px] font-normal">{label}</span>}
      </span>
    ) : null;

  const comeOn = (n: number) => onTable("come", n);
  const dontComeOn = (n: number) => onTable("dontCome", n);
  const pass = onTable("pass");
  const dontPass = onTable("dontPass");

  return (
    <TableFrame
      table={{ props, round, stake }}
      help={HELP}
      steps={{
        actions: [
          {
            testId: "craps-roll",
            tone: "go",
            wide: true,
            enabled: ready && !stagedProblem,
            run: () => void rollInRound(),
            label: chips.count > 0 ? `Bet ${formatCoins(chip * chips.count)} and roll` : "Roll",
          },
          {
            testId: "craps-place",
            enabled: ready && chips.count > 0 && !stagedProblem,
            run: () => void placeOnly(),
            label: "Bet without rolling",
          },
          { testId: "craps-clear", enabled: !pending && chips.count > 0, run: chips.clear, label: "Take back new chips" },
        ],
      }}
      bet={{
        total: chip * chips.count,
        params,
        paramsHint: chips.count === 0 ? "Tap a bet on the layout to put a chip on it" : null,
        returnByBet: true,
        pending,
        label: "Roll",
        amountLabel: "Chip value",
        onBet: () => void openRound(),
        amountOpen: true,
        roundProblem: stagedProblem,
        children: !open && (
          <button
            type="button"
            data-testid="craps-clear-staged"
            disabled={round.pending || chips.count === 0}
            onClick={chips.clear}
            className="rounded-lg bg-muted py-2 font-medium hover:bg-border disabled:opacity-50"
          >
            Clear chips
          </button>
        ),
      }}
    >
      <div className="flex flex-col gap-3">
        <div className="flex items-center justify-between">
          <div className="flex items-center gap-3" data-testid="craps-dice" data-dice={lastRoll?.join(",") ?? ""}>
            <Die face={lastRoll?.[0] ?? null} rollKey={view?.rolls.length ?? 0} size={48} />
            <Die face={lastRoll?.[1] ?? null} rollKey={view?.rolls.length ?? 0} index={1} size={48} />
            {lastRoll && <span className="text-2xl font-black tabular-nums">{lastRoll[0] + lastRoll[1]}</span>}
          </div>
          <div className="flex items-center gap-2">
            <span className="text-xs text-muted-foreground" data-testid="craps-point">
              {point ? `The point is ${point}` : "No point yet"}
            </span>
            <div
              data-testid="craps-puck"
              data-point={point ?? ""}
              className={`flex h-12 w-12 items-center justify-center rounded-full border-4 text-xs font-black ${point ? "border-slate-900 bg-white text-slate-900" : "border-white bg-slate-900 text-white"}`}
            >
              {point ? `ON ${point}` : "OFF"}
            </div>
          </div>
        </div>

        <div>
          <div className="grid grid-cols-6 gap-1 rounded-xl border-2 border-foreground/15 bg-card/30 p-1 sm:p-2">
            {POINTS.map((n) => (
              <div key={n} className="flex flex-col gap-1">
                {stakeSpot(
                  { type: "place", number: n as PointNumber },
                  true,
                  <>
                    <span className="text-lg sm:text-xl">{n}</span>
                    <span className="text-[9px] font-normal">
                      <span className="hidden sm:inline">place </span>
                      {odds(PLACE_RETURN[n as PointNumber])}
                    </span>
                  </>,
                  `h-20 ${point === n ? "ring-2 ring-warning" : ""}`,
                  <>
                    {placedChip(onTable("place", n))}
                    {placedChip(comeOn(n), "come")}
                    {placedChip(dontComeOn(n), "don't come")}
                  </>,
                )}
                {comeOn(n) &&
                  stakeSpot({ type: "comeOdds", number: n as PointNumber }, !!open, <span className="text-[9px]">come odds</span>, "h-8")}
                {dontComeOn(n) &&
                  stakeSpot(
                    { type: "dontComeOdds", number: n as PointNumber },
                    !!open,
                    <span className="text-[9px]">lay odds</span>,
                    "h-8",
                  )}
              </div>
            ))}
            {stakeSpot(
              { type: "dontCome" },
              point !== null,
              <>
                <span className="text-[10px] sm:text-xs">DON&apos;T COME</span>
                <span className="text-[9px] font-normal">12 pushes</span>
              </>,
              "col-span-2 h-12",
            )}
            {stakeSpot({ type: "come" }, point !== null, <span className="text-base sm:text-lg">COME</span>, "col-span-4 h-12")}
            {stakeSpot(
              { type: "field" },
              true,
              <>
                <span className="text-sm">FIELD</span>
                <span className="text-[10px] font-normal">
                  2 · 3 · 4 · 9 · 10 · 11 · 12{" "}
                  <span className="hidden sm:inline">
                    — 2 pays {odds(FIELD_RETURN[2]!)}, 12 pays {odds(FIELD_RETURN[12]!)}
                  </span>
                </span>
              </>,
              "col-span-6 h-14",
              placedChip(onTable("field")),
            )}
            {stakeSpot(
              { type: "dontPass" },
              point === null,
              <>
                <span className="text-[10px] sm:text-xs">DON&apos;T PASS</span>
                <span className="text-[9px] font-normal">12 pushes</span>
              </>,
              "col-span-2 h-12",
              placedChip(dontPass),
            )}
            {stakeSpot(
              { type: "pass" },
              point === null,
              <span className="text-base sm:text-lg">PASS LINE</span>,
              "col-span-4 h-12",
              placedChip(pass),
            )}
            {stakeSpot(
              { type: "dontPassOdds" },
              !!dontPass && point !== null,
              <span className="text-[10px]">lay odds (up to {formatMultiplier(LAY_MULTIPLE)})</span>,
              "col-span-2 h-8",
            )}
            {stakeSpot({ type: "passOdds" }, !!pass && point !== null, <span className="text-[10px]">pass odds</span>, "col-span-4 h-8")}
          </div>
        </div>

        <div className="grid grid-cols-3 gap-1 sm:grid-cols-6">
          {HARD_NUMBERS.map((n) =>
            stakeSpot(
              { type: "hard", number: n },
              true,
              <>
                <span>HARD {n}</span>
                <span className="text-[9px] font-normal">{odds(HARD_RETURN[n]!)}</span>
              </>,
              "h-12 border-rose-500/60",
              placedChip(onTable("hard", n)),
            ),
          )}
          {stakeSpot(
            { type: "anySeven" },
            true,
            <>
              <span>ANY 7</span>
              <span className="text-[9px] font-normal">{odds(ANY_SEVEN_RETURN)}</span>
            </>,
            "h-12 border-rose-500/60",
            placedChip(onTable("anySeven")),
          )}
          {stakeSpot(
            { type: "anyCraps" },
            true,
            <>
              <span>ANY CRAPS</span>
              <span className="text-[9px] font-normal">{odds(ANY_CRAPS_RETURN)}</span>
            </>,
            "h-12 border-rose-500/60",
            placedChip(onTable("anyCraps")),
          )}
        </div>

        {table && table.bets.length > 0 && (
          <section className="rounded-lg bg-card/70 p-2 text-xs" data-testid="craps-bets">
            <h2 className="mb-1 font-semibold text-muted-foreground">On the table</h2>
            <ul className="flex flex-col gap-1">
              {table.bets.map((b) => {
                const id = `${b.type}${b.number ? `-${b.number}` : ""}`;
                const oddsKind = (
                  b.type === "pass"
                    ? "passOdds"
                    : b.type === "dontPass"
                      ? "dontPassOdds"
                      : b.type === "come"
                        ? "comeOdds"
                        : b.type === "dontCome"
                          ? "dontComeOdds"
                          : null
                ) as TakeDownKind | null;
                const oddsNumber = b.type === "come" || b.type === "dontCome" ? b.number : undefined;
                return (
                  <li key={id} className="flex items-center justify-between gap-2">
                    <span>
                      {describe(b)} · {formatCoins(b.amount)}
                      {b.odds > 0 && ` + odds ${formatCoins(b.odds)}`}
                    </span>
                    <span className="flex gap-1">
                      {oddsKind && b.odds > 0 && (
                        <button
                          type="button"
                          data-testid={`craps-down-odds-${id}`}
                          disabled={!ready}
                          onClick={() => takeDown(oddsKind, oddsNumber)}
                          className="rounded bg-muted px-2 py-0.5 disabled:opacity-40"
                        >
                          Odds down
                        </button>
                      )}
                      {!CONTRACT(b, table.point) && (
                        <button
                          type="button"
                          data-testid={`craps-down-${id}`}
                          disabled={!ready}
                          onClick={() => takeDown(b.type, b.number)}
                          className="rounded bg-muted px-2 py-0.5 disabled:opacity-40"
                        >
                          Take down
                        </button>
                      )}
                    </span>
                  </li>
                );
              })}
            </ul>
          </section>
        )}

        {view && view.settled.length > 0 && (
          <ul className="flex flex-wrap gap-1 text-xs" data-testid="craps-settled">
            {view.settled.map((s: SettledBet, i) => (
              <li
                key={i}
                className={`rounded-full px-2 py-0.5 ${s.result === "win" ? "bg-emerald-400 text-slate-950" : s.result === "lose" ? "bg-rose-700 text-white" : "bg-muted text-foreground"}`}
              >
                {describe(s)}{" "}
                {s.result === "win"
                  ? `wins ${formatCoins(s.payout)}`
                  : s.result === "lose"
                    ? "loses"
                    : s.result === "push"
                      ? "pushes"
                      : `down ${formatCoins(s.payout)}`}
              </li>
            ))}
          </ul>
        )}
        <RoundResult round={round.round} bets={betsOfRound(round.round?.totalStake ?? 0, view?.settled ?? [])} />
      </div>
    </TableFrame>
  );
}
