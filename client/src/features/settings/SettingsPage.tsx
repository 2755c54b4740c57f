import * as RadioGroup from "@radix-ui/react-radio-group";
import { lazy, Suspense, useState } from "react";
import { ArrowLeft, Check, Moon, ShieldCheck, Sun, Volume2 } from "lucide-react";
import { Link, useLocation } from "wouter";
import { accentColor, chartColor, colorName, foregroundOn, themeColorGrid, type ThemeMode } from "@casino/common/theme";
import { api } from "../../net/api";
import { useSession } from "../../store/session";
import { useSettings } from "../../store/settings";
import { useTheme } from "../../store/theme";
import { Switch } from "../../ui/Switch";
import { useSystemReducedMotion } from "../../ui/useReducedMotion";
import { Button } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { cn } from "../../ui/cn";

const GRID = themeColorGrid();
const SeedsPanel = lazy(() => import("../fairness/SeedsPanel").then((m) => ({ default: m.SeedsPanel })));

/** Saves the theme on the server for a signed-in player; a failure is only logged (the local change stays). */
async function saveTheme(change: "mode" | "color") {
  const player = useSession.getState().player;
  if (!player || player.isGuest) return;
  const { mode, color, modeChosen } = useTheme.getState();
  try {
    // the mode only once the player has chosen it: until then the record leaves it to each device
    await api("/player/theme", { method: "PATCH", body: { playerId: player.id, color, ...(modeChosen ? { mode } : {}) } });
    useSession.getState().patchPlayer({ themeColor: color, ...(modeChosen ? { themeMode: mode, themeModeChosen: true } : {}) });
  } catch (error) {
    console.error(change === "mode" ? "Failed to save theme mode to database" : "Failed to save theme color to database", error);
  }
}

/** Settings: theme mode, the 10×10 colour grid, a preview and the derived colours. */
export default function SettingsPage() {
  const [, navigate] = useLocation();
  const { mode, color, modeChosen, set } = useTheme();
  const chooseMode = (m: ThemeMode) => {
    set({ mode: m });
    void saveTheme("mode");
  };
  const [seedsOpen, setSeedsOpen] = useState(false);

  return (
    <main className="mx-auto w-full max-w-3xl flex-1 space-y-4 px-2 py-4 sm:px-4">
      <div className="flex items-center gap-2">
        <Button variant="ghost" size="sm" onClick={() => navigate("/")}>
          <ArrowLeft className="h-4 w-4" aria-hidden /> Back
        </Button>
        <h1 className="text-2xl font-bold">Settings</h1>
      </div>

      <Card>
        <h2 className="text-lg font-bold">Theme Mode</h2>
        <p className="mb-3 text-sm text-muted-foreground" data-testid="theme-mode-hint">
          {modeChosen ? "Choose a light or dark casino." : `Following your device (${mode} now) until you choose.`}
        </p>
        <RadioGroup.Root
          value={mode}
          onValueChange={(v) => chooseMode(v as ThemeMode)}
          aria-label="Theme mode"
          className="grid grid-cols-2 gap-2 sm:max-w-sm"
        >
          {(["light", "dark"] as const).map((m) => (
            <RadioGroup.Item
              key={m}
              value={m}
              // the mode shown while following the device is not chosen yet: a tap on it chooses it
              onClick={() => !modeChosen && m === mode && chooseMode(m)}
              className={cn(
                "flex items-center justify-center gap-2 rounded-xl border-2 px-4 py-3 font-semibold",
                // the theme colour as ink: a pale swatch's own colour would not mark the chosen mode
                mode === m ? "border-primary-ink bg-primary/10" : "border-border hover:bg-muted",
              )}
            >
              {m === "light" ? <Sun className="h-4 w-4" aria-hidden /> : <Moon className="h-4 w-4" aria-hidden />}
              {m === "light" ? "Light" : "Dark"}
            </RadioGroup.Item>
          ))}
        </RadioGroup.Root>
      </Card>

      <Card className="px-2 sm:p-5">
        <h2 className="text-lg font-bold">Theme Color</h2>
        <p className="mb-3 text-sm text-muted-foreground">Pick the colour of buttons, highlights and the wheel.</p>
        <RadioGroup.Root
          value={color}
          onValueChange={(v) => {
            set({ color: v });
            void saveTheme("color");
          }}
          aria-label="Theme color"
          className="grid w-full max-w-md grid-cols-10 gap-0 min-[400px]:gap-1 sm:gap-1.5"
        >
          {GRID.flat().map((c) => (
            <RadioGroup.Item
              key={c}
              value={c}
              aria-label={colorName(c)}
              title={colorName(c)}
              data-color={c}
              className={cn(
                "relative grid aspect-square place-items-center rounded-md border border-black/10 transition hover:scale-110",
                c === color && "ring-2 ring-foreground ring-offset-2 ring-offset-card",
              )}
              style={{ background: `hsl(${c})` }}
            >
              <RadioGroup.Indicator>
                <Check className={cn("h-3.5 w-3.5 drop-shadow", foregroundOn(c) === "dark" ? "text-black" : "text-white")} aria-hidden />
              </RadioGroup.Indicator>
            </RadioGroup.Item>
          ))}
        </RadioGroup.Root>
        <p className="mt-3 text-sm" data-testid="theme-color-name">
          Chosen: <span className="font-semibold">{colorName(color)}</span>
        </p>
        <dl className="mt-3 flex flex-wrap gap-4 text-sm">
          <Swatch label="Primary" color={color} />
          <Swatch label="Accent" color={accentColor(color)} />
          <Swatch label="Chart" color={chartColor(color)} />
        </dl>
      </Card>

      <PlaySettingsCard />

      <Card>
        <h2 className="flex items-center gap-2 text-lg font-bold">
          <ShieldCheck className="h-5 w-5 text-primary-ink" aria-hidden /> Provably fair
        </h2>
        <p className="mb-3 text-sm text-muted-foreground">
          Your client seed, the hash of the server seed, the next server seed&apos;s hash, and a rotation that reveals the seed so you can
          check every round.
        </p>
        <div className="flex flex-wrap items-center gap-3">
          <Button onClick={() => setSeedsOpen(true)} data-testid="settings-seeds">
            Your seeds
          </Button>
          <Link href="/verify" className="inline-flex min-h-8 items-center text-sm text-primary-ink underline">
            Verify a round
          </Link>
          <Link href="/fairness" className="inline-flex min-h-8 items-center text-sm text-primary-ink underline">
            How it works
          </Link>
        </div>
        {seedsOpen && (
          <Suspense fallback={null}>
            <SeedsPanel open={seedsOpen} onOpenChange={setSeedsOpen} />
          </Suspense>
        )}
      </Card>

      <Card data-testid="theme-preview">
        <h2 className="text-lg font-bold">Preview</h2>
        <p className="mb-3 text-sm text-muted-foreground">This is how the casino looks with your theme.</p>
        <div className="rounded-xl border border-border bg-background p-4">
          <p className="font-semibold">Blackjack</p>
          <p className="mb-3 text-sm text-muted-foreground">Beat the dealer to 21. Blackjack pays 3:2.</p>
          <div className="flex flex-wrap gap-2">
            <Button tabIndex={-1}>Play Now</Button>
            <Button variant="secondary" tabIndex={-1}>
              Secondary
            </Button>
            <Button variant="outline" tabIndex={-1}>
              Outline
            </Button>
          </div>
          <div className="mt-3 flex h-2 overflow-hidden rounded-full bg-muted">
            <span className="w-1/2 bg-primary" />
            <span className="w-1/4 bg-accent" />
            <span className="w-1/6 bg-chart" />
          </div>
        </div>
      </Card>
    </main>
  );
}

function Swatch({ label, color }: { label: string; color: string }) {
  return (
    <div>
      <dt className="flex items-center gap-2 font-semibold">
        <span className="h-6 w-6 rounded-md border border-black/10" style={{ background: `hsl(${color})` }} aria-hidden />
        {label}
      </dt>
      <dd className="text-xs text-muted-foreground" data-testid={`swatch-${label.toLowerCase()}`} data-color={color}>
        {colorName(color)}
      </dd>
    </div>
  );
}

/**
 * Sound, its volume, animations, result toasts and reactions (saved on this device, and on a signed-in
 * player's record), and Turbo (this device).
 */
function PlaySettingsCard() {
  const { soundOn, soundVolume, animationsOn, resultToastsOn, reactionsOn, turbo, set, setTurbo } = useSettings();
  const systemReduces = useSystemReducedMotion();
  const guest = useSession((s) => s.player?.isGuest ?? true);
  return (
    <Card data-testid="play-settings">
      <h2 className="flex items-center gap-2 text-lg font-bold">
        <Volume2 className="h-5 w-5 text-primary-ink" aria-hidden /> Sound, animations and toasts
      </h2>
      <p className="mb-3 text-sm text-muted-foreground">
        {guest ? "Kept in this browser." : "Saved to your account, so every device you play on uses them."}
      </p>
      <div className="space-y-4">
        <Switch label="Sound" checked={soundOn} onCheckedChange={(on) => set({ soundOn: on })} />
        <label className="flex max-w-sm flex-col gap-1 text-sm font-medium">
          <span className="flex justify-between">
            Volume <span className="tabular-nums text-muted-foreground">{soundVolume}%</span>
          </span>
          <input
            type="range"
            min={0}
            max={100}
            step={5}
            value={soundVolume}
            disabled={!soundOn}
            data-testid="settings-volume"
            aria-label="Volume"
            onChange={(e) => set({ soundVolume: Number(e.target.value) })}
            className="h-8 w-full accent-[hsl(var(--primary))] disabled:opacity-50"
          />
        </label>
        <div>
          <Switch
            label="Animations"
            description="Cards, dice and wheels move into place; off, everything appears at once."
            checked={animationsOn}
            onCheckedChange={(on) => set({ animationsOn: on })}
          />
          {systemReduces && (
            <p className="mt-1 text-xs text-muted-foreground" data-testid="system-reduced-motion">
              Your device asks for reduced motion, so animations stay off whatever this says.
            </p>
          )}
        </div>
        <Switch
          label="Turbo (this device)"
          description="Results show at once, without their animation. Auto-bet always plays in turbo."
          checked={turbo}
          onCheckedChange={setTurbo}
        />
        <Switch
          label="Result toasts"
          description="A short “You won!” or “Better luck next time” note after each round; the table shows the result either way."
          checked={resultToastsOn}
          onCheckedChange={(on) => set({ resultToastsOn: on })}
        />
        <Switch
          label="Show reactions"
          description="The emoji people in your activity send on a seat, the crash round, a table or a round of the feed; off, you neither see nor send them."
          checked={reactionsOn}
          onCheckedChange={(on) => set({ reactionsOn: on })}
        />
      </div>
    </Card>
  );
}
