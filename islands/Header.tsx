/**
 * The page header: brand (none in discreet mode), the rotating tagline or an app screen's title,
 * the side menu and the server-trouble message.
 * The menu is a <details> toggle, so it works without JavaScript. Rendered on the server only;
 * its behaviour is a small script without React (islands/Header.enhance.ts): the menu closes
 * itself after 8 seconds (spec §2), the server-trouble message, the quick exit.
 */

import { Menu } from "../components/icons.ts";
import { titleText } from "../domain/texts.ts";
import { UI_TEXTS } from "../domain/uiTexts.ts";
import type { OfflineTexts } from "./sw/register.ts";

export interface HeaderProps {
  brandName: string;
  tagline: string;
  items: { path: string; label: string }[];
  currentPath: string;
  troubleText: string;
  /** Discreet mode: the quick exit's neutral page, and its button's text. */
  quickExitUrl?: string;
  quickExitText?: string;
  /** Discreet mode: no brand anywhere; the screen's title stands in its place. */
  discreet?: boolean;
  /**
   * An app screen's title, shown in the top bar instead of the tagline (the page's own heading
   * then stays for screen readers only on phones: static/css/tabs.css).
   */
  screenTitle?: string;
  /** A signed-in member's: the service worker is registered, with the offline line's and update offer's texts. */
  offline?: OfflineTexts;
}

export default function Header(
  { brandName, tagline, items, currentPath, quickExitUrl, quickExitText, discreet, screenTitle }: HeaderProps,
) {
  return (
    <header className="app-header">
      <details className="menu">
        <summary aria-label={UI_TEXTS.menu}>
          <Menu className="icon menu-icon" aria-hidden="true" />
          <span className="visually-hidden">{UI_TEXTS.menu}</span>
        </summary>
        <nav aria-label={UI_TEXTS.mainMenu}>
          <ul>
            {items.map((it) => (
              <li key={it.path}>
                <a href={it.path} aria-current={it.path === currentPath ? "page" : undefined}>{titleText(it.label)}</a>
              </li>
            ))}
          </ul>
        </nav>
      </details>
      {!discreet && (
        <a className="brand" href="/">
          <span className="brand-mark" aria-hidden="true">λ</span> {brandName}
        </a>
      )}
      {screenTitle
        ? <span className="screen-title" aria-hidden="true">{titleText(screenTitle)}</span>
        : !discreet && <span className="tagline">{tagline}</span>}
      {quickExitUrl && <a className="quick-exit" href={quickExitUrl} rel="noreferrer">{quickExitText}</a>}
    </header>
  );
}
