import { Flag, Share2, Trophy, X } from "lucide-react";
import { formatCoins, formatNet } from "@casino/common/format";
import { RACE_MINUTES, raceCustomId, type RaceRow, type RaceView } from "@casino/common/together";
import { Avatar } from "../../ui/Avatar";
import { Button } from "../../ui/Button";
import { cn } from "../../ui/cn";
import { useNow } from "../../ui/useNow";
import { useSession } from "../../store/session";
import { useTogether } from "../../store/together";
import { shareLink } from "../../platform/discord-together";
import { countdownText, raceShareMessage } from "./race-words";

type NameOf = (row: RaceRow) => string;

/**
 * The instance's race on the Tonight tab: the way to start one (5, 10 or 15 minutes) when none is on,
 * the join button and countdown of its join window, its live order and time left while it runs, and its
 * final order with the winner once it is over, which may be shared in Discord (a link whose `custom_id`
 * opens this scoreboard). A race opened from such a link shows above, until closed.
 */
export function RacePanel({ nameOf }: { nameOf: NameOf }) {
  const race = useTogether((s) => s.race);
  const shared = useTogether((s) => s.sharedRace);
  return (
    <div className="mb-3 space-y-2" data-testid="race-panel">
      {shared && shared.id !== race?.id && (
        <RaceCard race={shared} nameOf={nameOf} onClose={() => useTogether.setState({ sharedRace: null })} />
      )}
      {race && <RaceCard race={race} nameOf={nameOf} />}
      {(!race || race.phase === "finished") && <StartRace again={race !== null} />}
    </div>
  );
}

function StartRace({ again }: { again: boolean }) {
  const sender = useTogether((s) => s.raceSender);
  return (
    <div className="flex flex-wrap items-center gap-2 rounded-xl border border-dashed border-border p-2" data-testid="race-start">
      <span className="flex items-center gap-1 text-xs font-semibold">
        <Flag className="h-3.5 w-3.5" aria-hidden />
        {again ? "Start another race" : "Start a race"}
      </span>
      <div className="ml-auto flex gap-1" role="group" aria-label="Race length">
        {RACE_MINUTES.map((m) => (
          <Button
            key={m}
            size="sm"
            variant="outline"
            className="h-8 px-2.5"
            disabled={!sender}
            onClick={() => sender?.start(m)}
            data-testid={`race-start-${m}`}
            aria-label={`Start a ${m}-minute race`}
          >
            {m} min
          </Button>
        ))}
      </div>
    </div>
  );
}

function RaceCard({ race, nameOf, onClose }: { race: RaceView; nameOf: NameOf; onClose?: () => void }) {
  const skew = useTogether((s) => s.raceSkewMs);
  const sender = useTogether((s) => s.raceSender);
  const discord = useSession((s) => s.discord);
  const now = useNow(1000) + skew;
  const winner = race.rows.find((r) => r.winner);
  const joinLeft = Date.parse(race.joinClosesAt) - now;
  const runLeft = Date.parse(race.endsAt) - now;
  const title =
    race.phase === "joining"
      ? `${race.startedBy} started a ${race.minutes}-minute race`
      : race.phase === "running"
        ? `${race.minutes}-minute race`
        : winner
          ? `${winner.self ? "You win" : `${nameOf(winner)} wins`} the race!`
          : "The race is over: nobody played";
  return (
    <section
      className={cn("rounded-xl border p-2", race.phase === "finished" ? "border-primary/60 bg-primary/5" : "border-border bg-muted/40")}
      data-testid={onClose ? "race-shared" : "race-card"}
      data-phase={race.phase}
      data-race={race.id}
      aria-label="Race"
    >
      <header className="flex items-center gap-2">
        {race.phase === "finished" ? (
          <Trophy className="h-4 w-4 shrink-0 text-primary-ink" aria-hidden />
        ) : (
          <Flag className="h-4 w-4 shrink-0" aria-hidden />
        )}
        <h3 className="min-w-0 flex-1 truncate text-sm font-semibold" data-testid="race-title">
          {title}
        </h3>
        {race.phase === "joining" && (
          <span className="shrink-0 font-mono text-xs tabular-nums" data-testid="race-countdown" aria-live="off">
            starts in {countdownText(joinLeft)}
          </span>
        )}
        {race.phase === "running" && (
          <span className="shrink-0 font-mono text-xs tabular-nums" data-testid="race-countdown" aria-live="off">
            {countdownText(runLeft)} left
          </span>
        )}
        {race.phase === "finished" && discord && !onClose && (
          <Button
            size="sm"
            variant="ghost"
            className="h-8 px-2"
            aria-label="Share the race's result"
            data-testid="race-share"
            onClick={() => void shareLink(raceShareMessage(race), raceCustomId(race.id))}
          >
            <Share2 className="h-3.5 w-3.5" aria-hidden />
            Share
          </Button>
        )}
        {onClose && (
          <Button size="sm" variant="ghost" className="h-8 w-8 px-0" aria-label="Close the shared race" onClick={onClose}>
            <X className="h-4 w-4" aria-hidden />
          </Button>
        )}
      </header>
      {race.phase === "joining" && !onClose && (
        <div className="mt-1.5 flex items-center gap-2 text-xs">
          <span className="min-w-0 flex-1 text-muted-foreground">
            {race.joined ? "You're in. Rounds count once it starts." : "Join to race the others: only rounds settled while it runs count."}
          </span>
          {!race.joined && (
            <Button size="sm" className="h-8 shrink-0" disabled={!sender} onClick={() => sender?.join()} data-testid="race-join">
              Join the race
            </Button>
          )}
        </div>
      )}
      {race.rows.length > 0 && (
        <ol className="mt-1.5 space-y-0.5" aria-label={race.phase === "finished" ? "The race's final order" : "The race's order now"}>
          {race.rows.map((row) => (
            <li
              key={`${row.rank}:${row.discordId ?? "hidden"}`}
              className={cn(
                "flex items-center gap-2 rounded-md px-1.5 py-1 text-xs",
                row.self && "bg-primary/10 ring-1 ring-inset ring-primary",
              )}
              data-testid="race-row"
              data-net={row.net}
              data-rounds={row.rounds}
              data-winner={row.winner || undefined}
              data-self={row.self || undefined}
            >
              <span className="w-4 shrink-0 text-right font-bold tabular-nums text-muted-foreground">{row.rank}</span>
              <Avatar src={row.hidden ? null : row.avatarUrl} name={nameOf(row)} seed={row.hidden ? null : row.face} className="h-6 w-6" />
              <span className={cn("min-w-0 flex-1 truncate font-semibold", row.hidden && "select-none blur-[3px]")} data-testid="race-name">
                {nameOf(row)}
                {row.self && <span className="font-normal text-muted-foreground"> (you)</span>}
              </span>
              {row.winner && <Trophy className="h-3.5 w-3.5 shrink-0 text-primary-ink" aria-label="Winner" />}
              <span className="shrink-0 text-muted-foreground">
                {formatCoins(row.rounds)} {row.rounds === 1 ? "round" : "rounds"}
              </span>
              <span className={cn("w-16 shrink-0 text-right font-mono font-bold tabular-nums", row.net > 0 && "text-primary-ink")}>
                {formatNet(row.net)}
              </span>
            </li>
          ))}
        </ol>
      )}
      {race.phase !== "finished" && (
        <p className="mt-1 text-[11px] text-muted-foreground">Net of rounds settled while the race runs, payout minus stake.</p>
      )}
    </section>
  );
}
