/** The Likes tabs (spec §2): one page handler for the four paths; the island switches tabs in place. */

import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { renderPage } from "./render.tsx";
import { Island } from "../../components/Island.tsx";
import Likes from "../../islands/Likes.tsx";
import { type LikesItem, type LikesTabId, tabOfPath } from "../../islands/queries/likes.ts";
import {
  LIKES_PAGE,
  listLikesGiven,
  listLikesReceived,
  listPicLikesGiven,
  listPicLikesReceived,
  PIC_LIKES_PAGE,
} from "../../kv/likes.ts";
import type { Page } from "../../domain/shapes/paging.ts";

/** The first page of a tab, read from the store as the API would answer it. */
function firstPage(tab: LikesTabId, me: string): Promise<Page<LikesItem>> {
  switch (tab) {
    case "profilelikedyou":
      return listLikesReceived(me, "LIKE", { limit: LIKES_PAGE });
    case "profilelikedyourpics":
      return listPicLikesReceived(me, "LIKE", { limit: PIC_LIKES_PAGE });
    case "youlikedprofile":
      return listLikesGiven(me, "LIKE", { limit: LIKES_PAGE });
    case "youlikedprofilepics":
      return listPicLikesGiven(me, "LIKE", { limit: PIC_LIKES_PAGE });
  }
}

export async function likesPage(c: Context<AppEnv>) {
  const caller = c.get("caller")!;
  const tab = tabOfPath(c.req.path)!;
  const first = await firstPage(tab.id, caller.profileId);
  return renderPage(
    c,
    tab.label,
    <section className="page">
      <Island of={Likes} props={{ profileId: caller.profileId, tab: tab.id, first }} />
    </section>,
  );
}
