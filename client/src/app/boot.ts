import { startUp } from "./start";
import { applyTheme, useTheme } from "../store/theme";

/**
 * Imported first by main.tsx, so it runs before React and the lobby's modules are evaluated: the
 * device's theme is applied before the first paint, and sign-in is on the wire while the rest of the
 * bundle initialises.
 */
applyTheme(useTheme.getState().mode, useTheme.getState().color);
void startUp();
