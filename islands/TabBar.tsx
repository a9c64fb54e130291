/**
 * The app's tabs, one thumb-tap away on every logged-in page: Grid, Map, Chats, Likes and Me, a
 * bar at the bottom on phones and a rail at the side on wide screens, with unread counts on Chats
 * and Likes that follow the member's events live. The spec's menu and home cards stay.
 */

import { QueryProvider } from "./queries/client.tsx";
import { TEXTS } from "../domain/texts.ts";
import { useUnreadCounts } from "./queries/notifications.ts";
import { UI_TEXTS } from "../domain/uiTexts.ts";
import { phrase } from "../domain/phrases.ts";

export interface TabBarProps {
  profileId: string;
  currentPath: string;
  /**
   * Each tab's icon as SVG markup, drawn on the server from the app's icon set
   * (routes/pages/render.tsx): the island ships no icon code.
   */
  icons: Record<TabId, string>;
}

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

function Tabs({ profileId, currentPath, icons }: TabBarProps) {
  const counts = useUnreadCounts(profileId);
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
  return (
    <QueryProvider>
      <Tabs {...props} />
    </QueryProvider>
  );
}
