import { Rocket } from "lucide-react";
import { Dialog } from "../../ui/Dialog";
import { Button } from "../../ui/Button";

/** "You're Playing as a Guest": shown once; the button (or Escape, or the close button) stores the dismissed flag. */
export default function GuestDialog({ open, onContinue }: { open: boolean; onContinue(): void }) {
  return (
    <Dialog
      open={open}
      onOpenChange={(stillOpen) => !stillOpen && onContinue()}
      title="You're Playing as a Guest"
      description="Your coins and progress are kept on this device only."
    >
      <div className="space-y-3 text-sm">
        <p>To keep your balance, climb the leaderboard and unlock tags everywhere, launch the casino inside Discord:</p>
        <ol className="list-decimal space-y-1.5 pl-5">
          <li>Join a voice channel, or open a DM with a friend.</li>
          <li>
            Click the rocket icon <Rocket className="inline h-4 w-4 align-text-bottom text-primary-ink" aria-label="rocket" /> (Activities).
          </li>
          <li>Search for the casino activity.</li>
          <li>Launch it, and play with your Discord account.</li>
        </ol>
        <p className="text-muted-foreground">Guest data stays in this browser: clearing its storage starts a new guest.</p>
      </div>
      <Button className="mt-5 w-full" size="lg" onClick={onContinue}>
        Got it, Continue as Guest
      </Button>
    </Dialog>
  );
}
