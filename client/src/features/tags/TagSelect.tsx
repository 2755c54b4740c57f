import { useState } from "react";
import { Tag } from "lucide-react";
import { useSession } from "../../store/session";
import { Button } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { TagsDialog } from "./TagsDialog";
import { useTags } from "./useTags";

/** The player's active tag, and the button to the "Your Tags" dialog. */
export function TagSelect() {
  const player = useSession((s) => s.player);
  const [open, setOpen] = useState(false);
  const { tags } = useTags(player?.id, !open);
  if (!player) return null;
  const active = tags?.find((t) => t.tagId === player.activeTagId)?.tag.name;
  return (
    <Card className="flex flex-wrap items-center justify-between gap-3 py-3 sm:py-3">
      <div className="flex min-w-0 items-center gap-2 text-sm">
        <Tag className="h-4 w-4 shrink-0 text-primary-ink" aria-hidden />
        <span className="text-muted-foreground">Active tag:</span>
        <span className="truncate font-semibold" data-testid="active-tag">
          {player.activeTagId === null ? "No Tag" : (active ?? "…")}
        </span>
      </div>
      <Button size="sm" variant="outline" onClick={() => setOpen(true)}>
        My Tags
      </Button>
      <TagsDialog open={open} onOpenChange={setOpen} />
    </Card>
  );
}
