import { useState } from "react";
import { motion } from "motion/react";
import { DRAWN, MAX_PICKS, RISKS, TILES, payTable, type KenoParams, type KenoRisk, type KenoState } from "@casino/common/games/keno/engine";
import { kenoHitProbability } from "@casino/common/games/keno/engine";
import type { GameTableProps } from "../contract";
import { StakeTableFrame, useStakeTable, type StakeGame } from "../shared/StakeTable";
import { PayTable } from "../shared/GameHelp";
import { GemIcon } from "../shared/icons";
import { RoundResult } from "../shared/RoundResult";
import { formatChance, formatMultiplier } from "../shared/format";

const STEP_MS = 80;
const REVEAL_MS = DRAWN * STEP_MS + 200;

function randomPicks(count: number): number[] {
  const pool = Array.from({ length: TILES }, (_, i) => i + 1);
  const picks: number[] = [];
  const bytes = crypto.getRandomValues(new Uint32Array(count));
  for (let i = 0; i < count; i++) picks.push(pool.splice(bytes[i]! % pool.length, 1)[0]!);
  return picks;
}

/** The rules of the game, for its help. */
const RULES = (
  <>
    <p>
      Pick 1 to {MAX_PICKS} of the {TILES} numbers and a risk level. The server draws {DRAWN} numbers; you are paid by how many of your
      picks were drawn, per the table for your pick count and risk.
    </p>
    <p className="mt-2">Low risk pays small amounts often; high risk mostly pays nothing but has the biggest prizes.</p>
  </>
);

const KENO: StakeGame<KenoState> = { reveal: REVEAL_MS, label: "Bet", auto: true };

export default function KenoTable(props: GameTableProps) {
  const table = useStakeTable(props, KENO);
  const { round, view: last } = table;
  const [picks, setPicks] = useState<number[]>([]);
  const [risk, setRisk] = useState<KenoRisk>("classic");
  // a finished draw stays on the board until the picks change
  const board = last && last.picks.length === picks.length && last.picks.every((p) => picks.includes(p)) ? last : null;
  const params: KenoParams = { picks, risk };
  const toggle = (tile: number) => {
    if (round.pending) return;
    setPicks((p) => (p.includes(tile) ? p.filter((t) => t !== tile) : p.length >= MAX_PICKS ? p : [...p, tile]));
  };
  const pays = picks.length > 0 ? payTable(risk, picks.length) : [];
  const hits = board?.hits.length ?? -1;

  return (
    <StakeTableFrame
      table={table}
      help={{
        rules: RULES,
        payTable:
          picks.length > 0 ? (
            <PayTable
              head={["Hits", `Pays (${risk}, ${picks.length} pick${picks.length === 1 ? "" : "s"})`]}
              rows={pays.map((m, h) => ({
                label: `${h} · ${formatChance(kenoHitProbability(picks.length, h))}`,
                pays: formatMultiplier(m),
              }))}
            />
          ) : (
            <p className="text-xs">Pick numbers to see their pay table.</p>
          ),
        rtpRows: (bet) => bet.startsWith(`${risk},`),
      }}
      panel={{
        params,
        paramsHint: picks.length === 0 ? "Pick at least 1 number" : null,
        children: (
          <>
            <label className="flex flex-col gap-1 text-xs text-muted-foreground">
              Risk
              <select
                aria-label="Risk"
                data-testid="keno-risk"
                value={risk}
                disabled={round.pending}
                onChange={(e) => setRisk(e.target.value as KenoRisk)}
                className="rounded-lg border border-border bg-background px-3 py-2 capitalize text-foreground"
              >
                {RISKS.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
            </label>
            <div className="grid grid-cols-2 gap-2">
              <button
                type="button"
                data-testid="keno-random"
                disabled={round.pending}
                onClick={() => setPicks(randomPicks(MAX_PICKS))}
                className="rounded-lg bg-muted py-2 font-medium hover:bg-border"
              >
                Auto pick
              </button>
              <button
                type="button"
                data-testid="keno-clear"
                disabled={round.pending}
                onClick={() => setPicks([])}
                className="rounded-lg bg-muted py-2 font-medium hover:bg-border"
              >
                Clear
              </button>
            </div>
          </>
        ),
      }}
    >
      <div className="mx-auto flex w-full max-w-xl flex-col gap-4">
        <div className="grid grid-cols-8 gap-1.5 sm:gap-2" role="group" aria-label="Keno board">
          {Array.from({ length: TILES }, (_, i) => i + 1).map((tile) => {
            const picked = picks.includes(tile);
            const drawnAt = board ? board.drawn.indexOf(tile) : -1;
            const hit = drawnAt >= 0 && picked;
            return (
              <button
                key={tile}
                type="button"
                data-testid={`keno-tile-${tile}`}
                aria-pressed={picked}
                onClick={() => toggle(tile)}
                className={`relative aspect-square rounded-lg text-sm font-bold transition-colors sm:text-base ${
                  picked ? "bg-violet-700 text-white" : "border border-foreground/15 bg-muted text-foreground hover:bg-border"
                }`}
              >
                {tile}
                {drawnAt >= 0 && <span className="sr-only">{hit ? ", drawn: a hit" : ", drawn"}</span>}
                {drawnAt >= 0 && (
                  <motion.span
                    key={`${round.settledCount}-${tile}`}
                    data-testid={hit ? "keno-hit" : "keno-drawn"}
                    aria-hidden
                    initial={{ scale: 0, opacity: 0 }}
                    animate={{ scale: 1, opacity: 1 }}
                    transition={{ delay: (drawnAt * STEP_MS) / 1000 }}
                    className={`absolute inset-0 flex items-center justify-center rounded-lg ${hit ? "bg-emerald-400 text-slate-950 ring-4 ring-emerald-200" : "bg-rose-700 text-white"}`}
                  >
                    {tile}
                    {hit && (
                      <span className="absolute -right-1 -top-1 z-10 rounded-full bg-slate-900 p-0.5 ring-1 ring-emerald-300 sm:right-1 sm:top-1">
                        <GemIcon size={12} />
                      </span>
                    )}
                  </motion.span>
                )}
              </button>
            );
          })}
        </div>
        {picks.length > 0 && (
          <div className="flex flex-wrap gap-1 text-[11px]" data-testid="keno-paytable">
            {pays.map((m, h) => (
              <div
                key={h}
                className={`min-w-12 flex-1 rounded-md px-1 py-1 text-center ${h === hits ? "bg-emerald-400 font-bold text-slate-950" : "bg-card text-muted-foreground"}`}
              >
                <div>{formatMultiplier(m)}</div>
                <div>
                  {h} hit{h === 1 ? "" : "s"}
                </div>
              </div>
            ))}
          </div>
        )}
        <p className="text-center text-xs text-muted-foreground">
          {picks.length} of {MAX_PICKS} picked{board ? ` · ${board.hits.length} hit${board.hits.length === 1 ? "" : "s"}` : ""}
        </p>
        <RoundResult round={round.round} />
      </div>
    </StakeTableFrame>
  );
}
