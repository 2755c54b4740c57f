import { motion } from "motion/react";
import { UserPlus } from "lucide-react";

/** Between rounds of a shared room: bring friends in (Discord's invite dialog). */
export function InvitePrompt({ invite, text, testId }: { invite: () => void; text: string; testId: string }) {
  return (
    <motion.div
      initial={{ opacity: 0, y: 6 }}
      animate={{ opacity: 1, y: 0 }}
      className="flex items-center gap-3 rounded-xl border border-border bg-card p-3"
      data-testid={`${testId}-prompt`}
    >
      <UserPlus className="h-5 w-5 shrink-0 text-primary-ink" aria-hidden />
      <p className="min-w-0 flex-1 text-sm">{text}</p>
      <button
        type="button"
        onClick={invite}
        className="shrink-0 rounded-lg bg-primary inset-ring-2 inset-ring-primary-edge px-3 py-1.5 text-sm font-semibold text-primary-foreground hover:opacity-90"
        data-testid={`${testId}-button`}
      >
        Invite
      </button>
    </motion.div>
  );
}
