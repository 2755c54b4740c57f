import { useEffect, useState } from "react";
import { Info } from "lucide-react";
import { formatCoins, formatRecordTime } from "@casino/common/format";
import type { OwnSkillRecords } from "@casino/common/skill/api";
import { api } from "../../net/api";

/**
 * The player's own bests (`GET /api/skill-rounds/records`; the server checks its answer against the
 * shared schema, so the lobby's entry does not carry zod to parse it again).
 */
function useOwnRecords(): OwnSkillRecords | null {
  const [records, setRecords] = useState<OwnSkillRecords | null>(null);
  useEffect(() => {
    let alive = true;
    api<OwnSkillRecords>("/skill-rounds/records")
      .then((body) => alive && setRecords(body))
      .catch((error: unknown) => console.warn("Could not load your records", error));
    return () => {
      alive = false;
    };
  }, []);
  return records;
}

/**
 * For a guest, next to the boards: why they are not on them and how to be (play from Discord), and
 * their own best time and kills, which the boards do not show.
 */
export function GuestStanding() {
  const records = useOwnRecords();
  const kills = records?.kills.best ?? null;
  return (
    <section
      aria-labelledby="guest-standing"
      data-testid="guest-standing"
      className="mb-4 rounded-xl border border-border bg-muted/40 p-3 text-sm"
    >
      <h3 id="guest-standing" className="flex items-center gap-2 font-semibold">
        <Info className="h-4 w-4 text-primary-ink" aria-hidden /> Guests are not ranked
      </h3>
      <p className="mt-1 text-muted-foreground">
        As a guest you play on this device only, so your results stay off the boards. Launch the casino as an Activity in Discord (from a
        voice channel or a server&apos;s Activities) to be ranked under your Discord name, globally, in your server and in your voice
        channel.
      </p>
      <dl className="mt-3 grid grid-cols-2 gap-2" data-testid="own-records">
        <div className="rounded-lg bg-card p-2">
          <dt className="text-xs text-muted-foreground">Your best time (Connect the Dots)</dt>
          <dd className="font-mono font-bold tabular-nums" data-testid="own-best-time">
            {records === null ? "…" : records.speed.bestMs === null ? "None yet" : formatRecordTime(records.speed.bestMs)}
          </dd>
        </div>
        <div className="rounded-lg bg-card p-2">
          <dt className="text-xs text-muted-foreground">Your most kills (Dot Battle)</dt>
          <dd className="font-mono font-bold tabular-nums" data-testid="own-best-kills">
            {records === null ? "…" : kills === null ? "None yet" : `${formatCoins(kills)} ${kills === 1 ? "kill" : "kills"}`}
          </dd>
        </div>
      </dl>
    </section>
  );
}
