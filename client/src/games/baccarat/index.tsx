import { motion } from "motion/react";
import {
  BACCARAT_DECKS,
  BACCARAT_PAYS,
  BACCARAT_SIDES,
  type BaccaratParams,
  type BaccaratSide,
  type BaccaratState,
} from "@casino/common/games/baccarat/engine";
import { BACCARAT_WIN_PROBABILITY } from "@casino/common/rtp-table";
import type { BetAnswer } from "@casino/common/protocol";
import type { GameTableProps } from "../contract";
import { Hand } from "../shared/Cards";
import { PayTable, type HelpContent } from "../shared/GameHelp";
import { RoundResult } from "../shared/RoundResult";
import { ChipSpot, ChipTableFrame, useChipTable, type ChipGame } from "../shared/ChipTable";
import { formatChance } from "../shared/format";

const CARD_MS = 140;
const cardsOf = (v: BaccaratState) => v.player.length + v.banker.length;
const revealMs = (a: BetAnswer) => cardsOf(a.view as BaccaratState) * CARD_MS + 200;

const LABEL: Record<BaccaratSide, string> = { player: "Player", banker: "Banker", tie: "Tie" };
const pays = (side: BaccaratSide) => {
  const { num, den } = BACCARAT_PAYS[side];
  const net = num / den - 1;
  return `${Number.isInteger(net) ? net : net.toFixed(2)}:1`;
};

/** The game's help: its rules and pay table. */
const HELP: HelpContent = {
  rules: (
    <>
      <p>
        Punto Banco from a fresh {BACCARAT_DECKS}-deck shoe. Back the Player, the Banker or a Tie (chips of the chip value). Cards count
        face value, aces 1, tens and faces 0; a hand&apos;s total is the last digit of its sum. The higher total wins.
      </p>
      <p className="mt-2">
        A total of 8 or 9 on the first two cards is a natural and stands. Otherwise the Player draws on 0–5; the Banker then draws by the
        fixed table (depending on the Player&apos;s third card). Player and Banker bets push on a tie.
      </p>
    </>
  ),
  payTable: (
    <PayTable
      head={["Bet", "Pays · wins"]}
      rows={BACCARAT_SIDES.map((s) => ({ label: LABEL[s], pays: `${pays(s)} · ${formatChance(BACCARAT_WIN_PROBABILITY[s])}` }))}
    />
  ),
};

const BACCARAT: ChipGame<BaccaratState, BaccaratSide, BaccaratParams> = {
  reveal: revealMs,
  help: HELP,
  label: "Deal",
  hint: "Place a chip on Player, Banker or Tie",
  testPrefix: "baccarat",
  auto: true,
  paramsOf: (spots, amount) => ({
    bets: Object.fromEntries(spots.map(({ spot, chips: n }) => [spot, n * amount])),
  }),
};

export default function BaccaratTable(props: GameTableProps) {
  const table = useChipTable(props, BACCARAT);
  const { round, chips, view: last } = table;
  // deal order: P1 B1 P2 B2, then the player's third card, then the banker's
  const playerOrder = (i: number) => (i < 2 ? 2 * i : 4);
  const bankerOrder = (i: number) => (i < 2 ? 2 * i + 1 : last && last.player.length === 3 ? 5 : 4);
  const doneAt = last ? (cardsOf(last) * CARD_MS) / 1000 : 0;

  return (
    <ChipTableFrame table={table}>
      <div className="flex flex-col gap-6">
        <div className="grid grid-cols-2 gap-4">
          <Hand
            label="Player"
            testId="baccarat-player-hand"
            cards={last?.player ?? []}
            dealKey={round.settledCount}
            delayOf={(i) => (playerOrder(i) * CARD_MS) / 1000}
            total={last ? String(last.playerTotal) : undefined}
            totalDelay={doneAt}
          />
          <Hand
            label="Banker"
            testId="baccarat-banker-hand"
            cards={last?.banker ?? []}
            dealKey={round.settledCount}
            delayOf={(i) => (bankerOrder(i) * CARD_MS) / 1000}
            total={last ? String(last.bankerTotal) : undefined}
            totalDelay={doneAt}
          />
        </div>
        {last && (
          <motion.p
            key={round.settledCount}
            data-testid="baccarat-winner"
            data-winner={last.winner}
            initial={{ opacity: 0 }}
            animate={{ opacity: 1, transition: { delay: doneAt } }}
            className="text-center text-xl font-black uppercase tracking-wider text-warning"
          >
            {last.winner === "tie" ? "Tie" : `${LABEL[last.winner]} wins`}
          </motion.p>
        )}
        <div className="grid grid-cols-3 gap-2">
          {BACCARAT_SIDES.map((side) => {
            return (
              <ChipSpot
                key={side}
                testId={`baccarat-${side}`}
                won={!!last && round.round?.done === true && last.winner === side}
                onClick={() => !round.pending && chips.add(side, side)}
                stack={table.stack(side)}
                stackAt="right-2 top-2"
                className={`felt-spot relative flex h-20 flex-col items-center justify-center rounded-xl border-2 font-bold uppercase tracking-wide ${
                  side === "player" ? "border-sky-500" : side === "banker" ? "border-rose-500" : "border-emerald-500"
                }`}
              >
                {LABEL[side]}
                <span className="text-xs font-normal normal-case text-muted-foreground">pays {pays(side)}</span>
              </ChipSpot>
            );
          })}
        </div>
        <RoundResult round={round.round} bets={last ? Object.values(last.bets).filter((v) => (v ?? 0) > 0).length : 1} />
      </div>
    </ChipTableFrame>
  );
}
