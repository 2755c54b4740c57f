import { useEffect, useLayoutEffect, useRef, useState } from "react";
import {
  afterAutoBet,
  autoBetConfigProblem,
  startAutoBet,
  stakeProblem,
  type AmountChange,
  type AutoBetConfig,
  type AutoBetProgress,
} from "@casino/common/bet-panel";
import { LOSE_TOAST_MS, WIN_TOAST_MS } from "@casino/common/constants";
import type { BetAnswer } from "@casino/common/protocol";
import { formatNet, netCoinsText } from "@casino/common/format";
import { useSettings } from "../../store/settings";
import { toast } from "../../store/toast";
import { playSound } from "../../ui/sounds";
import { ActionBar } from "./ActionBar";
import { formatCoins } from "./format";
import { LabelledInput } from "./TargetField";
import type { StakeState } from "./use-stake";

/** What a table gives the auto-bet: how to place one bet, and how long to show each outcome. */
export interface AutoBetSupport {
  /** places one bet of `amount` (per chip) and resolves with the answer, or null when it was refused */
  place(amount: number): Promise<BetAnswer | null>;
  /** pause between bets, so each outcome can be seen (its reveal animation) */
  delayMs: number | ((answer: BetAnswer) => number);
}

/** The pause between two auto-bets at most (it plays in turbo, so a result needs no reveal time). */
const AUTO_PAUSE_MS = 300;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface ChangeField {
  reset: boolean;
  percent: string;
}

const toChange = (f: ChangeField): AmountChange => (f.reset ? { reset: true } : { reset: false, percent: Number(f.percent) });
const wholeOrZero = (text: string): number => (text.trim() === "" ? 0 : Number(text));

/** The one toast an auto-bet gives, when it stops: how many bets, the net, and why it stopped. */
function announceSummary(progress: AutoBetProgress | null, reason: string): void {
  const played = progress?.played ?? 0;
  const profit = progress?.profit ?? 0;
  toast({
    title: "Autobet finished",
    description: `${formatCoins(played)} bet${played === 1 ? "" : "s"}, net ${netCoinsText(profit)}. ${reason}`,
    variant: profit > 0 ? "success" : profit < 0 ? "destructive" : "default",
    duration: profit < 0 ? LOSE_TOAST_MS + 2_000 : WIN_TOAST_MS + 2_000,
  });
  if (profit > 0) playSound("win");
  else if (profit < 0) playSound("lose");
}

/**
 * Auto-bet: places the same bet again and again, changing the amount after a win or a loss, until the
 * count, a profit or loss limit, a refusal, a lost connection or a hidden page stops it. It plays in
 * turbo (results at once) with no per-round toast or sound, and tells one summary when it stops.
 */
export function AutoBetPanel(props: {
  auto: AutoBetSupport;
  stake: StakeState;
  connected: boolean;
  ready: boolean;
  onRunningChange(running: boolean): void;
}) {
  const { auto, stake, connected, ready, onRunningChange } = props;
  const [count, setCount] = useState("10");
  const [stopOnProfit, setStopOnProfit] = useState("");
  const [stopOnLoss, setStopOnLoss] = useState("");
  const [onWin, setOnWin] = useState<ChangeField>({ reset: true, percent: "0" });
  const [onLoss, setOnLoss] = useState<ChangeField>({ reset: true, percent: "0" });
  const [running, setRunning] = useState(false);
  const [progress, setProgress] = useState<AutoBetProgress | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const run = useRef(0);
  /** the progress counted so far, and a bet still on its way when the run was stopped */
  const counted = useRef<AutoBetProgress | null>(null);
  const inFlight = useRef(false);
  const stopReason = useRef<string | null>(null);
  const live = useRef({ connected, stake, auto });
  useLayoutEffect(() => {
    live.current = { connected, stake, auto };
  });

  const config: AutoBetConfig = {
    count: wholeOrZero(count),
    stopOnProfit: wholeOrZero(stopOnProfit),
    stopOnLoss: wholeOrZero(stopOnLoss),
    onWin: toChange(onWin),
    onLoss: toChange(onLoss),
  };
  const configProblem = autoBetConfigProblem(config);

  /** The run is over once its last bet is answered: then results have toasts again, and the summary shows. */
  const finish = (reason: string) => {
    useSettings.getState().setAutoBetRunning(false);
    announceSummary(counted.current, reason);
  };

  const stop = (reason: string) => {
    if (run.current === 0) return;
    run.current = 0;
    setRunning(false);
    onRunningChange(false);
    setStatus(reason);
    if (inFlight.current) stopReason.current = reason;
    else finish(reason);
  };

  // Stops at once when the connection drops or the page is hidden, and when the table closes.
  useEffect(() => {
    if (!connected) stop("Stopped: the connection was lost");
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [connected]);
  useEffect(() => {
    const onVisibility = () => {
      if (document.hidden) stop("Stopped: the page was hidden");
    };
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      document.removeEventListener("visibilitychange", onVisibility);
      if (run.current !== 0 || inFlight.current) useSettings.getState().setAutoBetRunning(false);
      run.current = 0;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const start = async () => {
    if (configProblem || !ready) return;
    const id = Date.now();
    run.current = id;
    setRunning(true);
    onRunningChange(true);
    setStatus(null);
    useSettings.getState().setAutoBetRunning(true);
    const fixed = config;
    let current = startAutoBet(live.current.stake.amount);
    counted.current = current;
    setProgress(current);
    let balance = live.current.stake.limits.balance;
    while (run.current === id) {
      const { connected, stake, auto } = live.current;
      if (!connected) return stop("Stopped: the connection was lost");
      if (document.hidden) return stop("Stopped: the page was hidden");
      const limits = { ...stake.limits, balance };
      const problem = stakeProblem(current.amount, limits);
      if (problem) return stop(`Stopped: ${problem}`);
      stake.setAmount(current.amount);
      inFlight.current = true;
      const answer = await auto.place(current.amount);
      inFlight.current = false;
      if (run.current !== id) {
        // stopped while the bet was in flight: still count it, then tell the summary
        if (answer) {
          counted.current = afterAutoBet(current, fixed, { stake: answer.totalStake, payout: answer.totalPayout }, limits).progress;
          setProgress(counted.current);
        }
        finish(stopReason.current ?? "Stopped");
        stopReason.current = null;
        return;
      }
      if (!answer) return stop("Stopped: the bet was refused");
      balance = answer.balance;
      const step = afterAutoBet(current, fixed, { stake: answer.totalStake, payout: answer.totalPayout }, { ...limits, balance });
      current = step.progress;
      counted.current = current;
      setProgress(current);
      if (step.stop) return stop(`Stopped: ${step.stop}`);
      // results show at once during an auto-bet: a short pause lets each be seen
      await sleep(Math.min(AUTO_PAUSE_MS, typeof auto.delayMs === "function" ? auto.delayMs(answer) : auto.delayMs));
    }
  };

  const field =
    "w-full rounded-lg border border-border bg-background px-3 py-1.5 tabular-nums text-foreground outline-none focus:border-primary disabled:opacity-60";
  const numberControl = (label: string, ariaLabel: string, id: string, value: string, set: (v: string) => void, placeholder?: string) => (
    <LabelledInput
      label={label}
      ariaLabel={ariaLabel}
      testId={id}
      inputMode="numeric"
      value={value}
      onChange={set}
      placeholder={placeholder}
      disabled={running}
      className={field}
    />
  );
  const modeButton = (testId: string, text: string, pressed: boolean, choose: () => void) => (
    <button
      type="button"
      data-testid={testId}
      aria-pressed={pressed}
      onClick={choose}
      className={`rounded-md px-2 py-1 text-xs font-medium ${pressed ? "bg-foreground text-background" : "bg-muted text-muted-foreground"}`}
    >
      {text}
    </button>
  );
  const changeControl = (label: string, id: string, value: ChangeField, set: (f: ChangeField) => void) => (
    <fieldset className="flex flex-col gap-1" disabled={running}>
      <legend className="mb-1 text-xs text-muted-foreground">{label}</legend>
      <div className="flex gap-1">
        {modeButton(`${id}-reset`, "Reset", value.reset, () => set({ ...value, reset: true }))}
        {modeButton(`${id}-change`, "Change by", !value.reset, () => set({ ...value, reset: false }))}
        <input
          aria-label={`${label}: change by percent`}
          data-testid={`${id}-percent`}
          inputMode="decimal"
          value={value.percent}
          disabled={value.reset || running}
          onChange={(e) => set({ ...value, percent: e.target.value })}
          className={`${field} min-w-0 flex-1`}
        />
        <span className="self-center text-xs text-muted-foreground">%</span>
      </div>
    </fieldset>
  );

  return (
    <div className="flex flex-col gap-2" data-testid="auto-bet">
      <div className="grid grid-cols-3 gap-2">
        {numberControl("Bets (0 = ∞)", "Number of bets", "auto-count", count, setCount)}
        {numberControl("Stop on profit", "Stop on profit", "auto-stop-profit", stopOnProfit, setStopOnProfit, "off")}
        {numberControl("Stop on loss", "Stop on loss", "auto-stop-loss", stopOnLoss, setStopOnLoss, "off")}
      </div>
      {changeControl("On win", "auto-on-win", onWin, setOnWin)}
      {changeControl("On loss", "auto-on-loss", onLoss, setOnLoss)}
      {configProblem && (
        <p className="text-xs text-destructive" data-testid="auto-error">
          {configProblem}
        </p>
      )}
      <ActionBar hint={configProblem}>
        {running ? (
          <button
            type="button"
            data-testid="auto-stop"
            onClick={() => stop("Stopped by you")}
            className="rounded-lg bg-amber-500 py-3 text-base font-bold text-slate-950 hover:bg-amber-400"
          >
            Stop Autobet
          </button>
        ) : (
          <button
            type="button"
            data-testid="auto-start"
            disabled={!!configProblem || !ready}
            onClick={() => void start()}
            className="rounded-lg bg-primary inset-ring-2 inset-ring-primary-edge py-3 text-base font-bold text-primary-foreground hover:brightness-110 disabled:cursor-not-allowed disabled:opacity-50"
          >
            Start Autobet
          </button>
        )}
      </ActionBar>
      {progress && (
        <p className="flex justify-between text-xs text-muted-foreground" aria-live="polite">
          <span>
            Bets placed <strong data-testid="auto-played">{progress.played}</strong>
          </span>
          <span>
            Profit{" "}
            <strong data-testid="auto-profit" className={progress.profit >= 0 ? "text-positive" : "text-destructive"}>
              {formatNet(progress.profit)}
            </strong>
          </span>
        </p>
      )}
      {status && (
        <p className="text-xs text-muted-foreground" data-testid="auto-status">
          {status}
        </p>
      )}
    </div>
  );
}
