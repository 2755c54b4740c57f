import { useId, useState, type KeyboardEvent } from "react";
import { SUGGESTION_MAX_LENGTH } from "@casino/common/constants";
import { api, ApiError } from "../../net/api";
import { toast } from "../../store/toast";
import { Dialog } from "../../ui/Dialog";
import { Button } from "../../ui/Button";

/** "Share Your Suggestions": a textarea with its N/2000 counter; Enter sends, Shift+Enter is a new line. */
export default function SuggestionsDialog({ playerId, onClose }: { playerId: string; onClose(): void }) {
  const [text, setText] = useState("");
  const [sending, setSending] = useState(false);
  const id = useId();

  const submit = async () => {
    if (sending) return;
    const suggestion = text.trim();
    if (!suggestion) {
      toast({ title: "Please enter a suggestion", variant: "destructive" });
      return;
    }
    setSending(true);
    try {
      await api("/suggestions", { method: "POST", body: { playerId, suggestion } });
      toast({ title: "Thank you!", description: "Your suggestion was sent.", variant: "success" });
      setText("");
      onClose();
    } catch (error) {
      console.error("Failed to submit suggestion", error);
      const reason = error instanceof ApiError ? error.reason : undefined;
      toast({ title: "Error", description: reason ?? "Failed to submit suggestion. Please try again.", variant: "destructive" });
    } finally {
      setSending(false);
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void submit();
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Share Your Suggestions"
      description="Tell us what would make the casino better."
    >
      <label htmlFor={id} className="sr-only">
        Your suggestion
      </label>
      <textarea
        id={id}
        value={text}
        maxLength={SUGGESTION_MAX_LENGTH}
        onChange={(e) => setText(e.target.value.slice(0, SUGGESTION_MAX_LENGTH))}
        onKeyDown={onKeyDown}
        rows={5}
        placeholder="A game you would like, something that confused you..."
        className="w-full resize-y rounded-xl border border-border bg-background p-3 text-sm outline-none focus:border-primary"
      />
      <div className="mt-3 flex items-center justify-between gap-3">
        <span className="text-xs tabular-nums text-muted-foreground" aria-live="polite">
          {text.length}/{SUGGESTION_MAX_LENGTH}
        </span>
        <Button onClick={submit} disabled={sending || text.trim().length === 0}>
          {sending ? "Sending..." : "Submit"}
        </Button>
      </div>
    </Dialog>
  );
}
