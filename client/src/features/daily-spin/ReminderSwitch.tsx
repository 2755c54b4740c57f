import { useState } from "react";
import type { PlayerRecord } from "@casino/common/api";
import { api } from "../../net/api";
import { useSession } from "../../store/session";
import { toast } from "../../store/toast";
import { Switch } from "../../ui/Switch";

/** "Remind me when ready": saved optimistically, switched back when the save fails. */
export function ReminderSwitch({ player }: { player: PlayerRecord }) {
  const [saving, setSaving] = useState(false);
  const enabled = player.reminderEnabled;

  const change = async (next: boolean) => {
    const patch = useSession.getState().patchPlayer;
    patch({ reminderEnabled: next, dailySpinReminder: next });
    setSaving(true);
    try {
      await api("/player/reminder", { method: "PATCH", body: { playerId: player.id, enabled: next } });
    } catch (error) {
      console.error("Failed to save reminder preference", error);
      patch({ reminderEnabled: !next, dailySpinReminder: !next });
      toast({ title: "Error", description: "Failed to save reminder preference. Please try again.", variant: "destructive" });
    } finally {
      setSaving(false);
    }
  };

  return <Switch checked={enabled} onCheckedChange={change} label="Remind me when ready" disabled={saving} />;
}
