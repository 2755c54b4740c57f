import { useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from "react";
import type { GameDefinition } from "@casino/common/catalogue";
import { quoteBet } from "@casino/common/games/odds";
import { MAX_PAYOUT } from "@casino/common/limits";
import { RTP_TABLE } from "@casino/common/rtp-table";
import { ActionBar } from "./ActionBar";
import { AutoBetPanel, type AutoBetSupport } from "./AutoBet";
import { Dialog } from "./Dialog";
import { formatChance, formatCoins, formatMultiplier, formatPercent, payoutText } from "./format";
import type { StakeState } from "./use-stake";

export interface BetPanelProps {
  game: GameDefinition;
  stake: StakeState;
  /** the coins the bet would stake in all (the amount times the chips on the layout) */
  total: number;
  /** the engine parameters of the bet, for the quote; null while the table has nothing to bet on */
  params: unknown;
  /** the table's own reason not to bet: an invalid input (shown as an error), or null */
  paramsProblem?: string | null;
  /** what is still missing before a bet ("Place a chip on the layout"): shown as a hint, not an error */
  paramsHint?: string | null;
  /** the game's return depends on which of its many bets are placed: the panel gives the range of its bets' returns */
  returnByBet?: true;
  pending: boolean;
  /** the server's last refusal */
  serverError: string | null;
  connected: boolean;
  /**
   * what the panel says while not connected; by default "Reconnecting… bets are paused.". null says
   * nothing: a room's first connect, where the table says it is joining, is no lost connection.
   */
  offlineNotice?: string | null;
  balance: number;
  /** the main button's text: Bet, Deal, Spin, Roll… */
  label: string;
  onBet(): void;
  /** a round is in progress: the main button gives way to `roundActions`, and the amount is fixed unless `amountOpen` */
  locked?: boolean;
  /** keep the amount editable during a round (craps stakes new chips mid-round) */
  amountOpen?: boolean;
  /** during a round: why the staged chips cannot be sent, shown under the field */
  roundProblem?: string | null;
  /** why betting is blocked for now (another game's open round), shown instead of a quote */
  blocked?: string | null;
  /** the label of the amount field; chip tables call it the chip value */
  amountLabel?: string;
  /** auto-bet, for single-step games */
  auto?: AutoBetSupport;
  /** game controls inside the panel (target, side, mine count…) */
  children?: ReactNode;
  /** the in-round actions shown instead of the main button while `locked` */
  roundActions?: ReactNode;
  /**
   * the round's main action, which the main key (Space) runs while `locked` (the crash room's Cash out):
   * its name for the "?" overlay, and whether it can be taken now
   */
  roundKey?: { label: string; ready: boolean; run(): void };
  onShowHelp(): void;
  /** extra keys of this table for the "?" overlay */
  hotkeys?: { key: string; does: string }[];
}

const isTyping = (target: EventTarget | null): boolean => {
  const el = target as HTMLElement | null;
  if (!el) return false;
  return el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName);
};

/**
 * The one bet panel of every table: amount with ½ / 2x / Max, the engine's quote of payout and win
 * chance, one clear error under the field, the main button, hotkeys with their "?" overlay, and
 * auto-bet where the game is single-step.
 */
/**
 * A game's exact return as the bet panel gives it: its main bet's (the first row of its RTP table,
 * played as its rules say is best), or the range over its bets where the player picks among many.
 */
function returnOf(gameId: string, byBet: boolean): { text: string; of: string } | undefined {
  const rows = RTP_TABLE[gameId];
  if (!rows?.length) return undefined;
  if (!byBet) return { text: formatPercent(rows[0]!.rtp), of: rows[0]!.bet };
  const rtps = rows.map((r) => r.rtp);
  return { text: `${formatPercent(Math.min(...rtps), 0)}–${formatPercent(Math.max(...rtps), 0)}`, of: "by bet: see the rules" };
}

export function BetPanel(props: BetPanelProps) {
  const { game, total, params, paramsProblem, pending, serverError, connected, label, onBet, locked, blocked, auto } = props;
  const stake = props.stake;
  const [mode, setMode] = useState<"manual" | "auto">("manual");
  const [autoRunning, setAutoRunning] = useState(false);
  const [keysOpen, setKeysOpen] = useState(false);

  const quote = useMemo(() => {
    if (stake.problem || paramsProblem || props.paramsHint || params === null) return null;
    return quoteBet(game.id, total, params);
  }, [game.id, total, params, stake.problem, paramsProblem, props.paramsHint]);
  const returnToPlayer = returnOf(game.id, props.returnByBet === true);

  const problem = stake.problem ?? paramsProblem ?? (quote && !quote.ok ? quote.error : null);
  const hint = props.paramsHint ?? null;
  const shownError = (locked ? (props.roundProblem ?? null) : problem) ?? serverError;
  const canBet = !problem && !hint && !blocked && connected && !pending && !locked && !autoRunning;
  const controlsDisabled = pending || (!!locked && !props.amountOpen) || autoRunning;

  const roundKey = props.roundKey;
  const act = useRef({ onBet, canBet, stake, controlsDisabled, mode, locked, roundKey });
  useLayoutEffect(() => {
    act.current = { onBet, canBet, stake, controlsDisabled, mode, locked, roundKey };
  });

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
      const { onBet, canBet, stake, controlsDisabled, mode, locked, roundKey } = act.current;
      if (e.key === "?") {
        e.preventDefault();
        setKeysOpen((open) => !open);
        return;
      }
      // behind an open dialog nothing is bet or changed
      if (document.querySelector('[aria-modal="true"]')) return;
      if (e.key === " " || e.code === "Space") {
        // a focused button answers Space by itself
        if ((e.target as HTMLElement | null)?.tagName === "BUTTON") return;
        e.preventDefault();
        if (locked) {
          if (roundKey?.ready) roundKey.run();
        } else if (canBet && mode === "manual") onBet();
      } else if ((e.key === "s" || e.key === "S") && !controlsDisabled) {
        stake.halve();
      } else if ((e.key === "d" || e.key === "D") && !controlsDisabled) {
        stake.double();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const units = stake.limits.units ?? 1;
  return (
    <div
      className="flex flex-col gap-3 rounded-xl border border-border bg-card p-4 text-sm text-foreground"
      data-testid="bet-panel"
      data-pending={pending}
      data-locked={!!locked}
    >
      <div className="flex items-center justify-between gap-2">
        {auto ? (
          <div role="tablist" aria-label="Bet mode" className="flex rounded-lg bg-muted p-1">
            {(["manual", "auto"] as const).map((m) => (
              <button
                key={m}
                type="button"
                role="tab"
                aria-selected={mode === m}
                data-testid={`mode-${m}`}
                disabled={autoRunning}
                onClick={() => setMode(m)}
                className={`min-h-8 rounded-md px-3 py-1 font-medium capitalize ${mode === m ? "bg-card text-foreground shadow-sm" : "text-muted-foreground hover:text-foreground"}`}
              >
                {m}
              </button>
            ))}
          </div>
        ) : (
          <span className="font-semibold text-muted-foreground">{game.title}</span>
        )}
        <div className="flex gap-1">
          <button
            type="button"
            data-testid="help-button"
            onClick={props.onShowHelp}
            className="min-h-8 rounded-md px-2 py-1 text-muted-foreground hover:bg-muted"
          >
            Rules
          </button>
          <button
            type="button"
            data-testid="hotkeys-button"
            aria-label="Keyboard shortcuts"
            onClick={() => setKeysOpen(true)}
            className="min-h-8 min-w-8 rounded-md px-2 py-1 font-bold text-muted-foreground hover:bg-muted"
          >
            ?
          </button>
        </div>
      </div>

      <div className="flex flex-col gap-1">
        <span className="flex justify-between text-xs text-muted-foreground">
          <span>
            {props.amountLabel ?? "Bet amount"}{" "}
            <span className="text-muted-foreground" data-testid="bet-min" data-value={stake.limits.min}>
              (min {formatCoins(stake.limits.min)})
            </span>
          </span>
          {units > 1 && <span data-testid="bet-total">Total {formatCoins(Number.isFinite(total) ? total : 0)}</span>}
        </span>
        <div className="flex gap-1">
          <input
            aria-label={props.amountLabel ?? "Bet amount"}
            data-testid="bet-amount"
            inputMode="numeric"
            value={stake.text}
            disabled={controlsDisabled}
            aria-invalid={!!shownError}
            aria-describedby="bet-error"
            onChange={(e) => stake.setText(e.target.value)}
            className="min-w-0 flex-1 rounded-lg border border-border bg-background px-3 py-2 text-base tabular-nums text-foreground outline-none focus:border-primary disabled:opacity-60"
          />
          {(
            [
              ["½", "bet-half", "Halve the amount (S)", stake.halve],
              ["2x", "bet-double", "Double the amount (D)", stake.double],
              ["Max", "bet-max", "Largest amount the balance allows", stake.max],
            ] as const
          ).map(([text, id, title, fn]) => (
            <button
              key={id}
              type="button"
              data-testid={id}
              title={title}
              disabled={controlsDisabled}
              onClick={fn}
              className="rounded-lg bg-muted px-2.5 font-semibold hover:bg-border disabled:opacity-50"
            >
              {text}
            </button>
          ))}
        </div>
        {shownError || !hint || locked ? (
          <p id="bet-error" data-testid="bet-error" role="alert" className="min-h-5 text-xs font-medium text-destructive">
            {shownError ?? ""}
          </p>
        ) : (
          <p id="bet-error" data-testid="bet-hint" className="min-h-5 text-xs text-muted-foreground">
            {hint}
          </p>
        )}
      </div>

      {props.children}

      {blocked ? (
        <p className="rounded-lg bg-amber-500/10 p-2 text-xs text-warning" data-testid="bet-blocked">
          {blocked}
        </p>
      ) : (
        !locked &&
        quote?.ok && (
          <dl className="grid grid-cols-2 gap-2 text-xs">
            <div className="rounded-lg bg-muted p-2">
              <dt className="text-muted-foreground">{quote.quote.winChance === null ? "Max payout" : "Payout on win"}</dt>
              <dd className="font-semibold tabular-nums" data-testid="bet-payout">
                {/* the exact payout and the whole coins it pays (rule 2), never one rounded figure as the promise */}
                {payoutText(quote.quote.exactPayout, { low: quote.quote.leastPayout, high: quote.quote.maxPayout })}{" "}
                <span className="text-muted-foreground">
                  {/* at the cap the multiplier says nothing (a million × on a small stake): name the limit instead */}
                  {quote.quote.maxPayout >= MAX_PAYOUT ? "(the table limit)" : `(${formatMultiplier(quote.quote.multiplier)})`}
                </span>
              </dd>
            </div>
            <div className="rounded-lg bg-muted p-2">
              {/* where the chance of a win depends on the player's choices, the main bet's exact return (docs/rtp.md) is the true figure */}
              <dt className="text-muted-foreground">{quote.quote.winChance === null ? "Return to player" : "Win chance"}</dt>
              <dd
                className="font-semibold tabular-nums"
                data-testid="bet-chance"
                title={quote.quote.winChance === null ? returnToPlayer?.of : undefined}
              >
                {quote.quote.winChance !== null ? formatChance(quote.quote.winChance) : (returnToPlayer?.text ?? "—")}
              </dd>
            </div>
          </dl>
        )
      )}

      {!connected && props.offlineNotice !== null && (
        <p className="text-xs text-warning" data-testid="bet-offline">
          {props.offlineNotice ?? "Reconnecting… bets are paused."}
        </p>
      )}

      {mode === "auto" && auto ? (
        <AutoBetPanel
          auto={auto}
          stake={stake}
          connected={connected}
          ready={!problem && !hint && !blocked && connected && !pending}
          onRunningChange={setAutoRunning}
        />
      ) : (
        <ActionBar hint={locked ? (props.roundProblem ?? serverError) : (shownError ?? hint ?? blocked)}>
          {locked ? (
            props.roundActions
          ) : (
            <button
              type="button"
              data-testid="bet-button"
              disabled={!canBet}
              onClick={onBet}
              className="rounded-lg bg-primary inset-ring-2 inset-ring-primary-edge py-3 text-base font-bold text-primary-foreground shadow hover:brightness-110 disabled:cursor-not-allowed disabled:opacity-50"
            >
              {pending ? "…" : label}
            </button>
          )}
        </ActionBar>
      )}

      <Dialog open={keysOpen} onClose={() => setKeysOpen(false)} title="Keyboard shortcuts" testId="hotkeys-overlay">
        <table className="w-full text-sm">
          <tbody>
            {[
              {
                key: "Space",
                does: `${label} (the main button)${roundKey ? `; ${roundKey.label} while your bet is in the round` : ""}`,
              },
              { key: "S", does: "Halve the amount" },
              { key: "D", does: "Double the amount" },
              ...(props.hotkeys ?? []),
              { key: "?", does: "Show or hide this list" },
              { key: "Esc", does: "Close a dialog" },
            ].map((k) => (
              <tr key={k.key} className="border-b border-border">
                <td className="py-1.5 pr-4">
                  <kbd className="rounded bg-muted px-2 py-0.5 font-mono text-xs">{k.key}</kbd>
                </td>
                <td className="py-1.5 text-muted-foreground">{k.does}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="mt-3 text-xs text-muted-foreground">Shortcuts are ignored while you type in a field.</p>
      </Dialog>
    </div>
  );
}
