/**
 * The app's tabs, one thumb-tap away on every logged-in page: Grid, Map, Chats, Likes and Me, a
 * bar at the bottom on phones and a rail at the side on wide screens, with unread counts on Chats
 * and Likes that follow the member's events live. The spec's menu and home cards stay.
 */

import { useSyncExternalStore } from "react";
import { QueryProvider } from "./queries/client.tsx";
import { TEXTS } from "../domain/texts.ts";
import { useUnreadCounts } from "./queries/notifications.ts";
import { UI_TEXTS } from "../domain/uiTexts.ts";
import { phrase } from "../domain/phrases.ts";
import { SCREEN_CHANGED } from "./screenChange.ts";

export interface TabBarProps {
  profileId: string;
  currentPath: string;
  /**
   * Each tab's icon as SVG markup, drawn on the server from the app's icon set
   * (routes/pages/render.tsx): the island ships no icon code.
   */
  icons: Record<TabId, string>;
  /**
   * The unread counts as the page read them, on a page that must write nothing naming its member
   * (the health report, docs/health-notices.md): the bar stays as rendered, with no live feed and no
   * call of its own (an open feed writes the member's presence and its lease; a call, the session's
   * last-seen time). Absent: the counts follow the member's events live.
   */
  still?: UnreadCounts;
}

type UnreadCounts = { chats: number; likes: number };

/** The tabs: where each goes, and which paths belong to it. */
export const TABS = [
  {
    id: "grid",
    label: "Grid",
    href: "/search/tile",
    match: ["/search/tile", "/search/swype", "/search/profile"],
  },
  { id: "map", label: "Map", href: "/search/map", match: ["/search/map"] },
  { id: "chats", label: "Chats", href: "/chat/personal", match: ["/chat/"] },
  { id: "likes", label: "Likes", href: "/likes/profilelikedyou", match: ["/likes/"] },
  {
    id: "me",
    label: "Me",
    href: "/profileEdit",
    match: ["/profileEdit", "/settings", "/profilePic"],
  },
] as const;

export type TabId = typeof TABS[number]["id"];

/** Listens for the address changing without a page load (a screen opened in the page, Back, Forward). */
function onScreenChange(changed: () => void): () => void {
  addEventListener(SCREEN_CHANGED, changed);
  addEventListener("popstate", changed);
  return () => {
    removeEventListener(SCREEN_CHANGED, changed);
    removeEventListener("popstate", changed);
  };
}

/** The tabs with counts that follow the member's events live. */
function LiveTabs(props: TabBarProps) {
  return <Tabs {...props} counts={useUnreadCounts(props.profileId)} />;
}

function Tabs({ currentPath: pagePath, icons, counts }: TabBarProps & { counts: UnreadCounts }) {
  // The page's path as the server rendered it, then the address as it changes in the page.
  const currentPath = useSyncExternalStore(onScreenChange, () => location.pathname, () => pagePath);
  return (
    <nav className="tab-bar" aria-label={UI_TEXTS.tabs}>
      {TABS.map((t) => {
        const current = t.match.some((m) => currentPath.startsWith(m));
        const count = t.id === "chats" ? counts.chats : t.id === "likes" ? counts.likes : 0;
        return (
          <a key={t.id} href={t.href} className="tab-link" aria-current={current ? "page" : undefined}>
            <span className="tab-icon" aria-hidden="true" dangerouslySetInnerHTML={{ __html: icons[t.id] }} />
            <span className="tab-label">{TEXTS.tabs[t.id]}</span>
            {count > 0 && (
              <span className="tab-count">
                {count > 99 ? "99+" : count}
                <span className="visually-hidden">{phrase("unread")}</span>
              </span>
            )}
          </a>
        );
      })}
    </nav>
  );
}

export default function TabBar(props: TabBarProps) {
  if (props.still) return <Tabs {...props} counts={props.still} />;
  return (
    <QueryProvider>
      <LiveTabs {...props} />
    </QueryProvider>
  );
}
