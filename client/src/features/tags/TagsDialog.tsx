import { useRef, useState } from "react";
import * as RadioGroup from "@radix-ui/react-radio-group";
import { Lock, Unlock } from "lucide-react";
import { objectiveText, progressPercent } from "@casino/common/tags";
import type { PlayerRecord } from "@casino/common/api";
import { api, messageOf } from "../../net/api";
import { useSession } from "../../store/session";
import { refreshLeaderboardProfile } from "../../store/leaderboard";
import { toast } from "../../store/toast";
import { Dialog } from "../../ui/Dialog";
import { cn } from "../../ui/cn";
import { useTags } from "./useTags";

const NO_TAG = "none";

/**
 * "Your Tags": No Tag and every tag, Unlocked or Locked, with progress (capped at 100 %) and its
 * objective. Only unlocked tags can be chosen; a choice in flight ignores further input.
 */
export function TagsDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const player = useSession((s) => s.player);
  const { tags, error } = useTags(player?.id, open);
  const pending = useRef(false);
  const [busy, setBusy] = useState(false);
  if (!player) return null;
  const value = player.activeTagId === null ? NO_TAG : String(player.activeTagId);

  const choose = async (next: string) => {
    if (pending.current || next === value) return;
    const tagId = next === NO_TAG ? null : Number(next);
    if (tagId !== null && !tags?.find((t) => t.tagId === tagId)?.unlocked) return;
    pending.current = true;
    setBusy(true);
    try {
      const updated = await api<PlayerRecord>("/player/active-tag", { method: "PATCH", body: { playerId: player.id, tagId } });
      useSession.setState({ player: updated });
      refreshLeaderboardProfile();
    } catch (e) {
      console.error("Failed to set active tag", e);
      toast({ title: "Failed to update tag", description: messageOf(e) || "Failed to set active tag", variant: "destructive" });
    } finally {
      pending.current = false;
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Your Tags" description="Show a title next to your name on the leaderboard.">
      {error && !tags ? (
        <p role="alert" className="text-destructive">
          Failed to fetch tags
        </p>
      ) : !tags ? (
        <p className="text-muted-foreground">Loading tags...</p>
      ) : (
        <RadioGroup.Root value={value} onValueChange={choose} aria-label="Active tag" aria-busy={busy} className="space-y-2">
          <Option value={NO_TAG} active={value === NO_TAG} disabled={busy} title="No Tag" detail="Show no tag next to your name." />
          {tags.map((t) => {
            const percent = progressPercent(t.progress, t.tag.objectiveCriteria);
            return (
              <Option
                key={t.tagId}
                value={String(t.tagId)}
                active={value === String(t.tagId)}
                disabled={busy || !t.unlocked}
                locked={!t.unlocked}
                title={t.tag.name}
                detail={objectiveText(t.tag.objectiveType, t.tag.objectiveCriteria)}
                description={t.tag.description}
                percent={percent}
              />
            );
          })}
        </RadioGroup.Root>
      )}
    </Dialog>
  );
}

interface OptionProps {
  value: string;
  active: boolean;
  disabled: boolean;
  locked?: boolean;
  title: string;
  detail: string;
  description?: string;
  percent?: number;
}

function Option({ value, active, disabled, locked, title, detail, description, percent }: OptionProps) {
  return (
    <RadioGroup.Item
      value={value}
      disabled={disabled}
      data-testid={`tag-option-${value}`}
      className={cn(
        "w-full rounded-xl border border-border p-3 text-left transition",
        active ? "border-primary bg-primary/10" : "hover:bg-muted",
        locked && "opacity-70",
        "disabled:cursor-not-allowed",
      )}
    >
      <span className="flex items-center gap-2">
        <span
          className={cn(
            "grid h-4 w-4 shrink-0 place-items-center rounded-full border-2",
            active ? "border-primary" : "border-muted-foreground",
          )}
        >
          <RadioGroup.Indicator className="h-2 w-2 rounded-full bg-primary" />
        </span>
        <span className="min-w-0 flex-1 truncate font-semibold">{title}</span>
        {percent !== undefined &&
          (locked ? (
            <span className="inline-flex items-center gap-1 rounded-full bg-muted px-2 py-0.5 text-xs font-semibold">
              <Lock className="h-3 w-3" aria-hidden /> Locked
            </span>
          ) : (
            <span className="inline-flex items-center gap-1 rounded-full bg-positive/15 px-2 py-0.5 text-xs font-semibold text-positive">
              <Unlock className="h-3 w-3" aria-hidden /> Unlocked
            </span>
          ))}
      </span>
      <span className="mt-1 block pl-6 text-sm text-muted-foreground">{detail}</span>
      {description && <span className="block pl-6 text-xs text-muted-foreground">{description}</span>}
      {percent !== undefined && (
        <span className="mt-2 flex items-center gap-2 pl-6">
          <span
            className="h-1.5 flex-1 overflow-hidden rounded-full bg-muted"
            role="progressbar"
            aria-valuenow={percent}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-label={`${title} progress`}
          >
            <span className="block h-full rounded-full bg-primary" style={{ width: `${percent}%` }} />
          </span>
          <span className="w-10 text-right text-xs tabular-nums">{percent}%</span>
        </span>
      )}
    </RadioGroup.Item>
  );
}
