import { useCallback, useState } from "react";
import * as RadioGroup from "@radix-ui/react-radio-group";
import * as Tabs from "@radix-ui/react-tabs";
import { Trophy } from "lucide-react";
import { formatCoins, formatRecordTime } from "@casino/common/format";
import type { LeaderboardScope, PlayerRecord } from "@casino/common/api";
import { api } from "../../net/api";
import { useSession } from "../../store/session";
import { refreshLeaderboardProfile, useAvailableScopes, useLeaderboard } from "../../store/leaderboard";
import { toast } from "../../store/toast";
import { Card } from "../../ui/Card";
import { Switch } from "../../ui/Switch";
import { cn } from "../../ui/cn";
import { BalanceTab } from "./BalanceTab";
import { RecordTab } from "./RecordTab";
import { GuestStanding } from "./GuestStanding";
import type { KillsEntry, SpeedEntry } from "./types";

const SCOPE_LABELS: Record<LeaderboardScope, string> = { global: "Global", guild: "This server", instance: "This voice channel" };

const SPEED_TEXTS = {
  loading: "Loading speed records...",
  error: "Failed to load speed records. Please try again later.",
  empty: "No speed records yet. Play Connect the Dots to set a record!",
  failure: "Failed to fetch speed leaderboard",
};
const KILLS_TEXTS = {
  loading: "Loading kill records...",
  error: "Failed to load kill records. Please try again later.",
  empty: "No kill records yet. Play Dot Battle to set a record!",
  failure: "Failed to fetch kills leaderboard",
};
const speedValue = (e: SpeedEntry) => formatRecordTime(e.completionTimeMs);
const killsValue = (e: KillsEntry) => `${formatCoins(e.kills)} ${e.kills === 1 ? "kill" : "kills"}`;

const TRIGGER =
  "flex-1 rounded-lg px-3 py-1.5 text-sm font-semibold text-muted-foreground data-[state=active]:bg-card data-[state=active]:text-foreground data-[state=active]:shadow";

/** The leaderboard: Balance (default), Speed and Kills, and the anonymous switch for a known player. */
export function LeaderboardPanel() {
  const player = useSession((s) => s.player);
  const [ownAnonymous, setOwnAnonymous] = useState<boolean | null>(null);
  const [saving, setSaving] = useState(false);
  const onOwnEntry = useCallback((anonymous: boolean | null) => setOwnAnonymous((a) => (a === anonymous ? a : anonymous)), []);
  // The player's own entry decides whether anonymous mode is on; the record when the entry is not shown.
  const anonymous = ownAnonymous ?? player?.anonymousMode ?? false;

  // Inside Discord the boards can also rank this server (guild) or this activity's voice channel (instance).
  const scopes = useAvailableScopes();
  const chosen = useLeaderboard((s) => s.scope);
  const setScope = useLeaderboard((s) => s.setScope);
  const scope = scopes[chosen] ?? scopes.global!;
  const offered = (Object.keys(SCOPE_LABELS) as LeaderboardScope[]).filter((s) => scopes[s]);

  const setAnonymous = async (enabled: boolean) => {
    if (!player) return;
    setSaving(true);
    try {
      const updated = await api<PlayerRecord>("/player/anonymous", { method: "PATCH", body: { playerId: player.id, enabled } });
      useSession.setState({ player: updated });
      setOwnAnonymous(enabled);
      refreshLeaderboardProfile();
    } catch (error) {
      console.error("Failed to update anonymous mode", error);
      toast({ title: "Error", description: "Failed to update anonymous mode", variant: "destructive" });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h2 className="flex items-center gap-2 text-xl font-bold">
          <Trophy className="h-5 w-5 text-gold" aria-hidden /> Leaderboard
        </h2>
        {player && !player.isGuest && <Switch checked={anonymous} onCheckedChange={setAnonymous} label="Anonymous" disabled={saving} />}
      </div>
      {offered.length > 1 && (
        <RadioGroup.Root
          value={scope.scope}
          onValueChange={(v) => setScope(v as LeaderboardScope)}
          aria-label="Players ranked"
          orientation="horizontal"
          className="mb-3 flex flex-wrap gap-1"
        >
          {offered.map((s) => (
            <RadioGroup.Item
              key={s}
              value={s}
              className={cn(
                "rounded-full border px-3 py-1 text-sm font-semibold",
                scope.scope === s ? "border-primary bg-primary/10 text-foreground" : "border-border text-muted-foreground hover:bg-muted",
              )}
            >
              {SCOPE_LABELS[s]}
            </RadioGroup.Item>
          ))}
        </RadioGroup.Root>
      )}
      {player?.isGuest && <GuestStanding />}
      <Tabs.Root defaultValue="balance">
        <Tabs.List aria-label="Leaderboards" className="mb-4 flex gap-1 rounded-xl bg-muted/60 p-1">
          <Tabs.Trigger value="balance" className={TRIGGER}>
            Balance
          </Tabs.Trigger>
          <Tabs.Trigger value="speed" className={TRIGGER}>
            Speed
          </Tabs.Trigger>
          <Tabs.Trigger value="kills" className={TRIGGER}>
            Kills
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="balance" className="outline-none">
          <BalanceTab player={player} scope={scope} onOwnEntry={onOwnEntry} />
        </Tabs.Content>
        <Tabs.Content value="speed" className="outline-none">
          <RecordTab<SpeedEntry> board="speed" label="Speed records" texts={SPEED_TEXTS} value={speedValue} player={player} scope={scope} />
        </Tabs.Content>
        <Tabs.Content value="kills" className="outline-none">
          <RecordTab<KillsEntry> board="kills" label="Kill records" texts={KILLS_TEXTS} value={killsValue} player={player} scope={scope} />
        </Tabs.Content>
      </Tabs.Root>
    </Card>
  );
}
