import { useEffect, useRef, useState } from "react";
import { useReducedMotion } from "../../ui/useReducedMotion";
import { Gift } from "lucide-react";
import { SPIN_ANIMATION_MS } from "@casino/common/constants";
import { formatCoins, formatHoursMinutes, spinAvailability } from "@casino/common/format";
import { landingSegment, spinRotation } from "@casino/common/wheel";
import type { PlayerRecord } from "@casino/common/api";
import type { SpinAnswer } from "@casino/common/protocol";
import { api, ApiError, messageOf } from "../../net/api";
import { RoomFailure } from "../../net/room-failure";
import { newRequestId } from "../../net/request-id";
import { useRoom } from "../../store/room";
import { useSession } from "../../store/session";
import { toast } from "../../store/toast";
import { refreshLeaderboard } from "../../store/leaderboard";
import { Button } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { useNow } from "../../ui/useNow";
import { Wheel } from "./Wheel";
import { ReminderSwitch } from "./ReminderSwitch";
import { SpinHistory } from "./SpinHistory";

/** The time, read in event handlers (render reads `useNow`'s). */
const clock = () => Date.now();

/** The server's answer: through the room when it is up, else `POST /api/daily-spin`. */
async function requestSpin(playerId: string): Promise<SpinAnswer> {
  const { connection, status } = useRoom.getState();
  if (connection && status === "open") return connection.request<SpinAnswer>("daily-spin", {});
  return api<SpinAnswer>("/daily-spin", { method: "POST", body: { playerId, requestId: newRequestId("spin") } });
}

/** When a refusal says the spin was already taken: how long until the next one. */
function alreadySpun(error: unknown): number | null {
  if (error instanceof RoomFailure && error.code === "already_spun") return Number(error.details?.msLeft ?? 0);
  if (error instanceof ApiError && error.code === "already_spun") return Number((error.body as { msLeft?: number }).msLeft ?? 0);
  return null;
}

/** The Daily Spin tab: the Daily Bonus Wheel card. */
export default function DailySpinTab({ player }: { player: PlayerRecord }) {
  // Re-rendered every 30 s for the countdown.
  const now = useNow(30_000);
  const reduced = useReducedMotion();
  const [rotation, setRotation] = useState(0);
  const [spinning, setSpinning] = useState(false);
  const [prize, setPrize] = useState<number | null>(null);
  const [spins, setSpins] = useState(0);
  const finishTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const { ready, msLeft } = spinAvailability(player.lastDailySpin, now);

  useEffect(
    () => () => {
      clearTimeout(finishTimer.current);
      useRoom.getState().holdBalance(false);
    },
    [],
  );

  const spin = async () => {
    if (spinning) return;
    const availability = spinAvailability(player.lastDailySpin, clock());
    if (!availability.ready) {
      toast({ title: "Already spun today", description: `Come back in ${formatHoursMinutes(availability.msLeft)}` });
      return;
    }
    setSpinning(true);
    setPrize(null);
    // The header keeps the old balance until the wheel lands, so the prize is not shown early.
    useRoom.getState().holdBalance(true);
    try {
      const answer = await requestSpin(player.id);
      setRotation((r) => spinRotation(r, landingSegment(answer.prize, answer.segment)));
      finishTimer.current = setTimeout(() => land(answer), reduced ? 0 : SPIN_ANIMATION_MS + 150);
    } catch (error) {
      setSpinning(false);
      useRoom.getState().holdBalance(false);
      const wait = alreadySpun(error);
      if (wait !== null) {
        useSession.getState().patchPlayer({ lastDailySpin: new Date(clock() + wait - 24 * 3_600_000).toISOString() });
        toast({ title: "Already spun today", description: `Come back in ${formatHoursMinutes(wait)}` });
      } else {
        console.error("Spin failed", error);
        toast({ title: "Spin failed", description: messageOf(error) || "Please try again later", variant: "destructive" });
      }
    }
  };

  const land = (answer: SpinAnswer) => {
    setSpinning(false);
    setPrize(answer.prize);
    setSpins((n) => n + 1);
    useSession.getState().patchPlayer({ lastDailySpin: answer.lastDailySpin });
    useRoom.getState().holdBalance(false);
    toast({
      title: `+${formatCoins(answer.prize)} Coins!`,
      description: "Your daily spin prize was added to your balance.",
      variant: "success",
    });
    refreshLeaderboard();
  };

  const label = spinning ? "Spinning..." : ready ? "Spin for Free Coins" : `Next spin in ${formatHoursMinutes(msLeft)}`;
  const lastSpin = player.lastDailySpin ? new Date(player.lastDailySpin).toLocaleString() : null;

  return (
    <Card className="mx-auto max-w-3xl">
      <div className="mb-4 flex items-center gap-3">
        <span className="grid h-10 w-10 place-items-center rounded-xl bg-primary/15 text-primary-ink">
          <Gift className="h-5 w-5" aria-hidden />
        </span>
        <div>
          <h2 className="text-xl font-bold">Daily Bonus Wheel</h2>
          <p className="text-sm text-muted-foreground">Spin once per day for free coins</p>
        </div>
      </div>
      <div className="grid items-center gap-6 md:grid-cols-2">
        <Wheel rotation={rotation} reduced={reduced} />
        <div className="flex flex-col items-center gap-4 text-center md:items-start md:text-left">
          <p aria-live="polite" className="min-h-10 text-3xl font-extrabold text-warning" data-testid="spin-result">
            {prize !== null ? `+${formatCoins(prize)} Coins!` : ""}
          </p>
          <Button size="lg" className="w-full max-w-xs" disabled={spinning || !ready} onClick={spin}>
            {label}
          </Button>
          <p className="text-sm text-muted-foreground">Spin daily for 50-500 free coins!</p>
          <p className="text-xs text-muted-foreground" data-testid="last-spin">
            {lastSpin ? `Last spin: ${lastSpin}` : "You have not spun the wheel yet."}
          </p>
          <ReminderSwitch player={player} />
        </div>
      </div>
      <SpinHistory playerId={player.id} version={spins} />
    </Card>
  );
}
