import { useTogether } from "../../store/together";

/** Opens the Tonight tab of the activity's card and scrolls the card into view. */
export function showTonight(): void {
  useTogether.setState({ activityTab: "tonight" });
  requestAnimationFrame(() => document.getElementById("activity-card")?.scrollIntoView({ block: "nearest", behavior: "smooth" }));
}
