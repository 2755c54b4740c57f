import { startUp } from "./start";
import { isStandalonePage } from "./standalone-pages";
import { currentPath, settleAddress } from "./address";
import { applyTheme, useTheme } from "../store/theme";

/**
 * Imported first by main.tsx, so it runs before React and the lobby's modules are evaluated: the
 * device's theme is applied before the first paint, and sign-in is on the wire while the rest of the
 * bundle initialises.
 */
applyTheme(useTheme.getState().mode, useTheme.getState().color);
// An address the app has no page at becomes the lobby's; a game's link gets the lobby under it for Back.
settleAddress();
// The verifier and the specification need no player: a link opened there makes no guest (the app signs
// in when the visit moves on to the casino). Discord launches the activity at "/", so its boot is unchanged.
if (!isStandalonePage(currentPath())) void startUp();
