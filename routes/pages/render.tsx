/** Server rendering of a page: body first (collecting islands), then the shell with their scripts. */

import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ReactElement, ReactNode } from "react";
import { renderToStaticMarkup, renderToString } from "react-dom/server";
import type { AppEnv } from "../env.ts";
import { collectIslands, Island } from "../../components/Island.tsx";
import { Layout } from "../../components/Layout.tsx";
import { discreetTitle, taglineOf } from "../../domain/brand.ts";
import { TEXTS, titleText } from "../../domain/texts.ts";
import { UI_TEXTS } from "../../domain/uiTexts.ts";
import { menuFor } from "../table.ts";
import { getManifest } from "../assets.ts";
import { pageAnswer } from "../compression.ts";
import Header from "../../islands/Header.tsx";
import TabBar, { type TabId } from "../../islands/TabBar.tsx";
import { unreadCounts } from "../../islands/queries/notifications.ts";
import { listNotifications } from "../../kv/notifications.ts";
import { isQuietRequest } from "../quiet.ts";
import { CircleUser, Heart, LayoutGrid, type LucideIcon, MapPin, MessageCircle } from "../../components/icons.ts";
import { isDiscreet, themeOf } from "../device.ts";
import { SafetyNotice } from "../../components/SafetyNotice.tsx";
import { ModerationNotice } from "../../components/ModerationNotice.tsx";
import { getSafety, safetyPlace } from "../../kv/safety.ts";
import { config } from "../../config/config.ts";
import { locale } from "../../domain/i18n.ts";
import { livePort } from "../livePort.ts";
import { type Phrase, phrase } from "../../domain/phrases.ts";
import { SPECULATION_RULES } from "../speculation.ts";
import { AFTER_PICTURES_SCRIPT } from "../afterPictures.ts";

/** The tabs' icons (lucide) as SVG markup for the tab bar, drawn at the first page that shows it, then kept. */
let tabIcons: Record<TabId, string> | undefined;
const tabIconsMarkup = () =>
  tabIcons ??= Object.fromEntries(
    ([["grid", LayoutGrid], ["map", MapPin], ["chats", MessageCircle], ["likes", Heart], ["me", CircleUser]] as [
      TabId,
      LucideIcon,
    ][]).map(([id, Icon]) => [id, renderToStaticMarkup(<Icon className="icon" aria-hidden="true" />)]),
  ) as Record<TabId, string>;

export interface PageOptions {
  status?: ContentfulStatusCode;
  bodyClass?: string;
  /** Show the tab bar to a logged-in member (default). The logout page, whose session ends while it shows, does not. */
  tabs?: boolean;
  /** An app screen: its title shows in the top bar (its heading kept for screen readers on phones). */
  screen?: boolean;
  /**
   * A member's page that Back and Forward may show again at once from the browser's back/forward
   * cache (`private, no-cache` rather than `no-store`): the grid. Logging out clears that cache
   * (routes/api/auth.ts, `Clear-Site-Data`). A visitor's pages always may: they hold nothing private.
   */
  backForward?: boolean;
  /**
   * The page's first view is whole in the server's HTML, its pictures the largest part of it (the
   * grid): its scripts are fetched once it has painted and its first pictures are in
   * (routes/afterPictures.ts, decision 0174).
   */
  picturesFirst?: boolean;
  /**
   * The page's islands hydrate in slices, React yielding to the browser every few milliseconds
   * instead of holding the main thread for a whole island (islands/client.ts, decision 0183). Only
   * for a page whose islands read nothing another island's effects change: the grid.
   */
  hydrateInSlices?: boolean;
}

/** A page of one section (`className`) under its heading: `title` in the language in use. */
export function titledPage(
  c: Context<AppEnv>,
  title: string,
  body: ReactNode,
  className = "page",
): Promise<Response> {
  return renderPage(
    c,
    title,
    <section className={className}>
      <h1>{titleText(title)}</h1>
      {body}
    </section>,
  );
}

/** Renders a page: its title, the header with the menu for this caller, and the body. */
export async function renderPage(
  c: Context<AppEnv>,
  title: string,
  body: ReactElement,
  opts: PageOptions = {},
): Promise<Response> {
  // The notice's read began with the caller's (routes/middleware.ts), beside the page's own reads.
  const notice = c.get("caller") ? await c.get("notice") : null;
  const { result: bodyHtml, islands } = collectIslands(() => renderToString(body));
  const caller = c.get("caller");
  const brand = c.get("brand");
  const discreet = isDiscreet(c);
  const tabs = caller !== null && opts.tabs !== false;
  // A page that must write nothing naming its member (the health report, docs/health-notices.md)
  // names no screen to fetch ahead (each such fetch is a request that writes the session's last-seen
  // time), and its tab bar is still: the counts read with the page, no live feed, no call.
  const quiet = isQuietRequest(c);
  const still = tabs && quiet ? unreadCounts(await listNotifications(caller.profileId)) : undefined;
  // Discreet mode: no brand name nor tagline in the props either, and the menu's plain titles.
  const headerProps = {
    brandName: discreet ? "" : brand.name,
    tagline: discreet ? "" : phrase(taglineOf(brand) as Phrase),
    items: menuFor({ loggedIn: !!caller, roles: caller?.roles ?? [] })
      .map((it) => ({ ...it, label: discreetTitle(it.label, discreet) })),
    currentPath: c.req.path,
    troubleText: TEXTS.serverTrouble,
    ...(caller
      ? { offline: { offlineLine: UI_TEXTS.offlineLine, updateReady: UI_TEXTS.updateReady, reload: UI_TEXTS.reload } }
      : {}),
    ...(discreet ? { quickExitUrl: config.quickExitUrl, quickExitText: TEXTS.quickExit, discreet: true } : {}),
    ...(opts.screen && caller ? { screenTitle: discreetTitle(title, discreet) } : {}),
  };
  // A page with no island of its own ships no JavaScript: its header stays plain HTML.
  const hydrate = islands.size > 0;
  const { result: header, islands: headerIslands } = collectIslands(() =>
    renderToString(
      <>
        <Island of={Header} props={headerProps} hydrate={hydrate} />
        {tabs && (
          <Island
            of={TabBar}
            props={{ profileId: caller.profileId, currentPath: c.req.path, icons: tabIconsMarkup(), still }}
            hydrate={hydrate}
          />
        )}
      </>,
    )
  );
  const manifest = getManifest();
  // Enhanced islands' small scripts first: a module script runs only after those before it, and React's take long.
  const names = [...headerIslands, ...islands].filter((n) => manifest.islands[n])
    .sort((a, b) => Number(!!manifest.islands[b].enhanced) - Number(!!manifest.islands[a].enhanced));
  const assets = names.map((n) => manifest.islands[n]);
  const css = [manifest.css, ...assets.flatMap((a) => a.css)].filter(Boolean);
  // A page with scripts in another language than English loads that translation: preloaded (islands/locales.ts).
  const translation = assets.some((a) => a.translated) ? manifest.locales?.[locale()] : undefined;
  const localePreload = translation ? [translation.js, ...translation.preload] : [];
  const html = renderToString(
    <Layout
      title={title}
      brand={brand}
      discreet={discreet}
      css={[...new Set(css)]}
      scripts={assets.map((a) => a.js)}
      preload={[...new Set([...assets.flatMap((a) => a.preload), ...localePreload])]}
      header={<div className="contents" dangerouslySetInnerHTML={{ __html: header }} />}
      bodyHtml={notice ? renderToString(<ModerationNotice notice={notice} back={c.req.path} />) + bodyHtml : bodyHtml}
      bodyClass={[opts.bodyClass, opts.screen && caller ? "app-screen" : ""].filter(Boolean).join(" ") || undefined}
      tabs={tabs}
      theme={themeOf(c)}
      livePort={caller ? livePort() : null}
      eventsAfter={caller ? c.get("eventsAfter") : null}
      speculationRules={tabs && !quiet ? SPECULATION_RULES : undefined}
      afterPicturesScript={opts.picturesFirst && assets.length ? AFTER_PICTURES_SCRIPT : undefined}
      hydrateInSlices={opts.hydrateInSlices && assets.length > 0}
    />,
  );
  // Never kept by a shared cache; a member's page is not kept on the device unless Back may show it.
  c.header("cache-control", !caller ? "no-cache" : opts.backForward ? "private, no-cache" : "no-store");
  return pageAnswer(c, "<!doctype html>" + html, opts.status ?? 200);
}

/**
 * The safety notice a member must see once, where being gay is a crime (kv/safety.ts), or null.
 * `back` is where acknowledging it returns to.
 */
export async function safetyNoticeFor(c: Context<AppEnv>): Promise<ReactElement | null> {
  const caller = c.get("caller");
  if (!caller) return null;
  const [place, settings] = await Promise.all([safetyPlace(caller.profileId), getSafety(caller.profileId)]);
  if (!place.atRisk || settings.noticeSeen) return null;
  return <SafetyNotice back={c.req.path} />;
}
