import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { startUp } from "./start";
import { applyTheme, useTheme } from "../store/theme";
import "./styles.css";

// The device's theme before the first paint; the player's record may change it once signed in.
applyTheme(useTheme.getState().mode, useTheme.getState().color);
void startUp();

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
