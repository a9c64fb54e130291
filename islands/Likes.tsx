/**
 * The four Likes tabs (spec §2): Liked You, Your Pics, You Liked, Their Pics. One island with
 * react-router, so switching tabs changes the address without a page load; the server renders
 * the current tab through a static router with the first page of its list.
 */

import { useEffect } from "react";
import { BrowserRouter, NavLink, Route, Routes, StaticRouter, useLocation } from "react-router";
import { QueryProvider } from "./queries/client.tsx";
import {
  LIKES_TABS,
  type LikesItem,
  type LikesTab,
  type LikesTabId,
  tabOfPath,
  useLikesListQuery,
} from "./queries/likes.ts";
import { useShowsNsfw } from "./useShowsNsfw.ts";
import { BriefPicture } from "../components/BriefPicture.tsx";
import { LoadMore } from "../components/LoadMore.tsx";
import { profileUrl, shortName } from "../domain/format.ts";
import { Ago } from "../components/Time.tsx";
import { UI_TEXTS } from "../domain/uiTexts.ts";
import { FEEL_TEXTS } from "../domain/feelTexts.ts";
import type { Page } from "../domain/shapes/paging.ts";

export interface LikesProps {
  profileId: string;
  /** The tab the server rendered, and its first page. */
  tab: LikesTabId;
  first: Page<LikesItem>;
}

function Item({ item, pics, nsfw, eager }: { item: LikesItem; pics: boolean; nsfw: boolean; eager: boolean }) {
  // Picture tabs show the liked picture; profile tabs the other member's first picture.
  const picId = pics && "profilePicId" in item ? item.profilePicId : item.other.profilePicId ?? undefined;
  const name = item.other.profileName;
  return (
    <li>
      <a className="tile" href={profileUrl(item.other.profileId)}>
        <BriefPicture picId={picId} name={name} scale={256} nsfw={nsfw} eager={eager} />
        <span className="tile-when">
          <Ago ts={item.tsCreated} />
        </span>
        <span className="tile-name">{shortName(name)}</span>
      </a>
    </li>
  );
}

function TabPanel(
  { tab, profileId, first }: { tab: LikesTab; profileId: string; first?: Page<LikesItem> },
) {
  const q = useLikesListQuery(tab, profileId, first);
  const nsfw = useShowsNsfw();
  const items = q.data?.pages.flatMap((p) => p.items) ?? [];
  if (q.isPending) return <p className="muted" role="status">{UI_TEXTS.loading}</p>;
  if (q.isError) {
    return (
      <div className="stack" role="alert">
        <p className="error">{UI_TEXTS.listNotLoaded}</p>
        <button type="button" onClick={() => q.refetch()} disabled={q.isFetching}>{FEEL_TEXTS.retry}</button>
      </div>
    );
  }
  if (items.length === 0) {
    // The spec's words, then what to do next.
    return (
      <div className="empty-state">
        <p className="likes-empty">{tab.empty}</p>
        <a className="button primary" href="/search/tile">{FEEL_TEXTS.findPeople}</a>
      </div>
    );
  }
  return (
    <>
      <ul className="tiles">
        {items.map((it, i) => (
          <Item
            key={`${it.likerProfileId}-${"profilePicId" in it ? it.profilePicId : it.likedProfileId}`}
            item={it}
            pics={tab.pics}
            nsfw={nsfw}
            eager={i < 8}
          />
        ))}
      </ul>
      <LoadMore
        hasMore={q.hasNextPage}
        loading={q.isFetchingNextPage}
        onMore={() => q.fetchNextPage()}
        button
        endText={tab.end}
      />
    </>
  );
}

function LikesTabs({ profileId, tab: firstTab, first }: LikesProps) {
  const location = useLocation();
  const current = tabOfPath(location.pathname) ?? LIKES_TABS.find((t) => t.id === firstTab)!;
  useEffect(() => {
    // Keep the brand suffix of the server's title ("Liked You · Lambda").
    const suffix = document.title.includes(" · ") ? document.title.slice(document.title.indexOf(" · ")) : "";
    document.title = current.label + suffix;
  }, [current]);
  return (
    <>
      <h1>{current.label}</h1>
      <nav className="tabs" aria-label={UI_TEXTS.likes}>
        {LIKES_TABS.map((t) => (
          <NavLink
            key={t.id}
            to={`/likes/${t.id}`}
            className={({ isActive }) => isActive ? "tab active" : "tab"}
          >
            {t.label}
          </NavLink>
        ))}
      </nav>
      <Routes>
        {LIKES_TABS.map((t) => (
          <Route
            key={t.id}
            path={`/likes/${t.id}`}
            element={<TabPanel tab={t} profileId={profileId} first={t.id === firstTab ? first : undefined} />}
          />
        ))}
      </Routes>
    </>
  );
}

export default function Likes(props: LikesProps) {
  const tabs = <LikesTabs {...props} />;
  return (
    <QueryProvider>
      <section className="likes">
        {typeof document === "undefined"
          ? <StaticRouter location={`/likes/${props.tab}`}>{tabs}</StaticRouter>
          : <BrowserRouter>{tabs}</BrowserRouter>}
      </section>
    </QueryProvider>
  );
}
