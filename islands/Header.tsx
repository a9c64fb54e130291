/**
 * The page header: brand, rotating tagline, the side menu and the server-trouble message.
 * The menu is a <details> toggle, so it works without JavaScript; hydrated, it closes itself
 * after 8 seconds (spec §2).
 */

import { useEffect, useRef, useState } from "react";
import { EVENTS } from "./queries/api.ts";
import { titleText } from "../domain/texts.ts";

/** The menu closes by itself this long after opening. */
export const MENU_AUTO_CLOSE_MS = 8000;
/** The server-trouble message shows this long. */
export const TROUBLE_MS = 10_000;

export interface HeaderProps {
  brandName: string;
  tagline: string;
  items: { path: string; label: string }[];
  currentPath: string;
  troubleText: string;
  /** Discreet mode: the quick exit's neutral page, and its button's text. */
  quickExitUrl?: string;
  quickExitText?: string;
}

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

export default function Header(
  { brandName, tagline, items, currentPath, troubleText, quickExitUrl, quickExitText }: HeaderProps,
) {
  const [open, setOpen] = useState(false);
  const [trouble, setTrouble] = useState(false);
  const details = useRef<HTMLDetailsElement>(null);

  useEffect(() => {
    if (!open) return;
    const t = setTimeout(() => setOpen(false), MENU_AUTO_CLOSE_MS);
    return () => clearTimeout(t);
  }, [open]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const show = () => {
      setTrouble(true);
      clearTimeout(timer);
      timer = setTimeout(() => setTrouble(false), TROUBLE_MS);
    };
    globalThis.addEventListener(EVENTS.serverTrouble, show);
    return () => {
      globalThis.removeEventListener(EVENTS.serverTrouble, show);
      clearTimeout(timer);
    };
  }, []);

  useEffect(() => {
    if (!quickExitUrl) return;
    let last = 0;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      const t = Date.now();
      if (t - last < QUICK_EXIT_ESC_MS) quickExit(quickExitUrl);
      last = t;
    };
    globalThis.addEventListener("keydown", onKey);
    return () => globalThis.removeEventListener("keydown", onKey);
  }, [quickExitUrl]);

  return (
    <header className="app-header">
      <details
        className="menu"
        ref={details}
        open={open}
        onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}
      >
        <summary aria-label="Menu">
          <span className="menu-icon" aria-hidden="true">☰</span>
          <span className="visually-hidden">Menu</span>
        </summary>
        <nav aria-label="Main menu">
          <ul>
            {items.map((it) => (
              <li key={it.path}>
                <a href={it.path} aria-current={it.path === currentPath ? "page" : undefined}>{titleText(it.label)}</a>
              </li>
            ))}
          </ul>
        </nav>
      </details>
      <a className="brand" href="/">
        <span className="brand-mark" aria-hidden="true">λ</span> {brandName}
      </a>
      <span className="tagline">{tagline}</span>
      {quickExitUrl && (
        <a
          className="quick-exit"
          href={quickExitUrl}
          rel="noreferrer"
          onClick={(e) => {
            e.preventDefault();
            quickExit(quickExitUrl);
          }}
        >
          {quickExitText}
        </a>
      )}
      {trouble && <p className="trouble" role="alert">{troubleText}</p>}
    </header>
  );
}
