/**
 * The header's behaviour (islands/Header.tsx renders it): the menu closes by itself 8 seconds
 * after opening (spec §2), a 5xx anywhere shows the server-trouble message for 10 seconds, and in
 * discreet mode the quick exit (its link, or Esc twice) leaves for a neutral page.
 */

import { EVENTS } from "./queries/api.ts";
import type { Enhancement } from "./enhance.ts";
import type { HeaderProps } from "./Header.tsx";
import { startOffline } from "./sw/register.ts";
import { openProfilesAtOnce } from "./viewTransitions.ts";

/** The menu closes by itself this long after opening. */
export const MENU_AUTO_CLOSE_MS = 8000;
/** The server-trouble message shows this long. */
export const TROUBLE_MS = 10_000;
/** Two Esc presses within this long leave at once. */
export const QUICK_EXIT_ESC_MS = 1000;

/**
 * Leaves for a neutral page, replacing this tab's history entry, so Back does not lead here.
 * Also forgets what this device kept of the page (local cache).
 */
function quickExit(url: string) {
  try {
    sessionStorage.clear();
  } catch { /* storage off */ }
  location.replace(url);
}

const enhanceHeader: Enhancement<HeaderProps> = (root, { troubleText, quickExitUrl, offline }) => {
  const header = root.querySelector<HTMLElement>(".app-header")!;
  if (offline) startOffline(header, offline);
  openProfilesAtOnce();

  const menu = header.querySelector<HTMLDetailsElement>("details.menu")!;
  let closeTimer: ReturnType<typeof setTimeout> | undefined;
  menu.addEventListener("toggle", () => {
    clearTimeout(closeTimer);
    if (menu.open) closeTimer = setTimeout(() => menu.open = false, MENU_AUTO_CLOSE_MS);
  });

  let trouble: HTMLParagraphElement | undefined;
  let troubleTimer: ReturnType<typeof setTimeout> | undefined;
  globalThis.addEventListener(EVENTS.serverTrouble, () => {
    // Offline, the offline line says why calls fail: the server is not in trouble.
    if (offline && !navigator.onLine) return;
    if (!trouble) {
      trouble = document.createElement("p");
      trouble.className = "trouble";
      trouble.setAttribute("role", "alert");
      trouble.textContent = troubleText;
      header.append(trouble);
    }
    clearTimeout(troubleTimer);
    troubleTimer = setTimeout(() => {
      trouble?.remove();
      trouble = undefined;
    }, TROUBLE_MS);
  });

  if (!quickExitUrl) return;
  header.querySelector(".quick-exit")?.addEventListener("click", (e) => {
    e.preventDefault();
    quickExit(quickExitUrl);
  });
  let last = 0;
  globalThis.addEventListener("keydown", (e) => {
    if (e.key !== "Escape") return;
    const t = Date.now();
    if (t - last < QUICK_EXIT_ESC_MS) quickExit(quickExitUrl);
    last = t;
  });
};
export default enhanceHeader;
