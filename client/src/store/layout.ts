import { create } from "zustand";

/**
 * How Discord shows the activity: `pip` while it is a picture-in-picture window (layout mode PIP of
 * `ACTIVITY_LAYOUT_MODE_UPDATE`, followed by platform/discord-layout.ts); the page then shows its
 * compact view. Always false outside Discord.
 */
export const useLayout = create<{ pip: boolean }>()(() => ({ pip: false }));
