import { lazy, Suspense, useState } from "react";
import { Settings, Sparkles } from "lucide-react";
import { Link, useLocation } from "wouter";
import { discordAvatarUrl } from "@casino/common/avatar";
import { useSession } from "../../store/session";
import { Avatar } from "../../ui/Avatar";
import { BalanceDisplay } from "./BalanceDisplay";
import { Notifications } from "./Notifications";
import { SpinReadyButton } from "../daily-spin/SpinReadyButton";

// Loaded when first opened: neither is part of the lobby's first view.
const ProfileDialog = lazy(() => import("../profile/ProfileDialog"));
const SeedsPanel = lazy(() => import("../fairness/SeedsPanel").then((m) => ({ default: m.SeedsPanel })));

/** The name shown: the Discord user's, else the player's, else "Player". */
export function useDisplayName(): string {
  const discord = useSession((s) => s.discord);
  const player = useSession((s) => s.player);
  return discord?.user.globalName || discord?.user.username || player?.username || "Player";
}

function useAvatarUrl(): string | null {
  const discord = useSession((s) => s.discord);
  const player = useSession((s) => s.player);
  if (player?.avatarUrl) return player.avatarUrl;
  return discord ? discordAvatarUrl(discord.user.id, discord.user.avatar) : null;
}

/** Balance, notifications, settings and the player. */
export function Header() {
  const name = useDisplayName();
  const avatar = useAvatarUrl();
  const player = useSession((s) => s.player);
  return (
    <header className="sticky top-0 z-20 border-b border-border bg-background/95">
      <div className="mx-auto flex h-16 w-full max-w-6xl items-center gap-2 px-3 sm:gap-3 sm:px-4">
        <h1 className="flex min-w-0 items-center gap-2 text-lg font-extrabold tracking-tight" data-testid="lobby-heading">
          <span className="grid h-8 w-8 shrink-0 place-items-center rounded-lg bg-primary text-primary-foreground">
            <Sparkles className="h-4 w-4" aria-hidden />
          </span>
          <span className="hidden min-[400px]:inline">Casino</span>
          <span className="sr-only min-[400px]:hidden">Casino</span>
        </h1>
        <div className="ml-auto flex items-center gap-1 sm:gap-2">
          <BalanceDisplay />
          <SpinReadyButton />
          <Notifications />
          <Link href="/settings" aria-label="Settings" className="grid h-10 w-10 place-items-center rounded-full hover:bg-muted">
            <Settings className="h-5 w-5" aria-hidden />
          </Link>
          <ProfileButton name={name}>
            <Avatar src={avatar} name={name} seed={player?.face ?? name} />
            <span className="hidden max-w-36 truncate text-sm font-semibold md:inline" data-testid="username">
              {name}
            </span>
          </ProfileButton>
        </div>
      </div>
    </header>
  );
}

/**
 * The avatar and name as the button to the player's profile; from the profile, the seeds panel (to
 * rotate the seeds and reveal the server seed). Both close when the page changes (a Verify link).
 */
function ProfileButton({ name, children }: { name: string; children: React.ReactNode }) {
  const player = useSession((s) => s.player);
  const [location] = useLocation();
  const [opened, setOpened] = useState<{ what: "profile" | "seeds"; at: string } | null>(null);
  const shown = opened?.at === location ? opened.what : null;
  const setShown = (what: "profile" | "seeds" | null) => setOpened(what && { what, at: location });
  return (
    <>
      <button
        type="button"
        // the visible name is part of the accessible one
        aria-label={`Profile, ${name}`}
        disabled={!player}
        onClick={() => setShown("profile")}
        className="flex items-center gap-2 rounded-full p-0.5 hover:bg-muted md:pr-3"
        data-testid="user"
      >
        {children}
      </button>
      {shown && (
        <Suspense fallback={null}>
          {shown === "profile" ? (
            <ProfileDialog open onOpenChange={(open) => !open && setShown(null)} onRotate={() => setShown("seeds")} />
          ) : (
            <SeedsPanel open onOpenChange={(open) => !open && setShown(null)} />
          )}
        </Suspense>
      )}
    </>
  );
}
