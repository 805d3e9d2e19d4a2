// The signed-in window's navigation: its views (Training first), which one opens (the one shown
// last, remembered in the app's preferences as `homeView`), and the arrow keys that move between
// the navigation's buttons.
import type { HomeView } from "./generated/bindings";

/** The views, in the navigation's order. */
export const SECTIONS: readonly HomeView[] = ["training", "workouts", "clients", "remote", "account"];

/** The view to open: the remembered one when it is still a view, else Training. */
export function openingSection(saved: string | null | undefined): HomeView {
  return SECTIONS.find((section) => section === saved) ?? "training";
}

/**
 * The view an arrow, Home or End key moves to from `current` (wrapping around); null for any
 * other key, which the navigation leaves to the browser.
 */
export function sectionForKey(current: HomeView, key: string): HomeView | null {
  const at = SECTIONS.indexOf(current);
  const step: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
  if (key === "Home") return SECTIONS[0];
  if (key === "End") return SECTIONS[SECTIONS.length - 1];
  if (!(key in step) || at < 0) return null;
  return SECTIONS[(at + step[key] + SECTIONS.length) % SECTIONS.length];
}
