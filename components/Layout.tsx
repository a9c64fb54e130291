/** The document shell every page shares: head, header, main container, and on public pages the footer. */

import type { ReactNode } from "react";
import type { Brand } from "../domain/brand.ts";
import { TEXTS, titleText } from "../domain/texts.ts";
import { dir, pageLang } from "../domain/i18n.ts";
import { UI_TEXTS } from "../domain/uiTexts.ts";

export interface LayoutProps {
  title: string;
  brand: Brand;
  /** Stylesheet and island scripts of the page. */
  css: string[];
  scripts: string[];
  preload: string[];
  header: ReactNode;
  /** The page body, already rendered to HTML (islands collected). */
  bodyHtml: string;
  bodyClass?: string;
  /** Discreet mode: a neutral title and icon, in tabs, history and on the home screen; no brand named in the page. */
  discreet?: boolean;
  /** The page has the app's tab bar (logged in): room is kept for it. */
  tabs?: boolean;
  /** This device's colour scheme (Account settings): the system's, or always light or dark. */
  theme?: "system" | "light" | "dark";
  /** The live listener's port, where a logged-in page opens its event socket (null: this port). */
  livePort?: number | null;
  /** A member's page: the event cursor its first live feed names (what was written after the page's reads comes first). */
  eventsAfter?: string | null;
  /** A member's pages: the speculation rules (JSON) that fetch the likely next screens ahead. */
  speculationRules?: string;
  /**
   * The page's first view is whole in its HTML (its islands only add to it): its scripts wait in a
   * `<template>` until the page has painted and its first pictures (`fetchpriority="high"`) have
   * loaded, and this inline script (routes/afterPictures.ts) then adds them (decision 0174).
   */
  afterPicturesScript?: string;
  /**
   * The page's islands hydrate in slices, yielding to the browser between them (islands/client.ts):
   * a page whose islands read nothing another island's effects change (the grid).
   */
  hydrateInSlices?: boolean;
}

/** Escapes a value for an HTML attribute. */
const attr = (v: string) => v.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** The HTML document of a page. Focus lands on the main container (spec §2). */
export function Layout(p: LayoutProps) {
  return (
    <html
      lang={pageLang()}
      dir={dir()}
      data-theme={p.theme && p.theme !== "system" ? p.theme : undefined}
      data-hydration={p.hydrateInSlices ? "slices" : undefined}
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {p.livePort ? <meta name="live-port" content={String(p.livePort)} /> : null}
        {p.eventsAfter ? <meta name="events-after" content={p.eventsAfter} /> : null}
        <meta name="color-scheme" content={p.theme && p.theme !== "system" ? p.theme : "light dark"} />
        <title>{p.discreet ? TEXTS.neutralTitle : `${titleText(p.title)} · ${p.brand.name}`}</title>
        <link rel="icon" href={p.discreet ? "/static/neutral-icon.svg" : "/static/icon.svg"} type="image/svg+xml" />
        <link
          rel="apple-touch-icon"
          href={p.discreet ? "/static/icons/neutral-192.png" : "/static/icons/icon-192.png"}
        />
        <meta name="theme-color" content={p.discreet ? "#f2f2f2" : "#1d1330"} />
        <link
          rel="manifest"
          href={p.discreet ? "/static/manifest-neutral.webmanifest" : "/static/manifest.webmanifest"}
        />
        {p.css.map((href) => <link key={href} rel="stylesheet" href={href} />)}
        {p.afterPicturesScript
          ? (
            <>
              <template
                dangerouslySetInnerHTML={{
                  __html: p.preload.map((href) => `<link rel="modulepreload" href="${attr(href)}">`).join("") +
                    p.scripts.map((src) => `<script type="module" src="${attr(src)}"></script>`).join(""),
                }}
              />
              <script dangerouslySetInnerHTML={{ __html: p.afterPicturesScript }} />
            </>
          )
          : (
            <>
              {p.preload.map((href) => <link key={href} rel="modulepreload" href={href} />)}
              {p.scripts.map((src) => <script key={src} type="module" src={src} />)}
            </>
          )}
        {p.speculationRules && (
          <script type="speculationrules" dangerouslySetInnerHTML={{ __html: p.speculationRules }} />
        )}
      </head>
      <body
        className={p.bodyClass}
        data-brand={p.discreet ? undefined : p.brand.id}
        data-tabs={p.tabs ? "1" : undefined}
      >
        <a className="skip-link" href="#main">{UI_TEXTS.skipToContent}</a>
        {p.header}
        <main id="main" tabIndex={-1} autoFocus dangerouslySetInnerHTML={{ __html: p.bodyHtml }} />
        {!p.tabs && (
          <footer className="app-footer">
            <a href="/aboutus">{titleText("About")}</a> · <a href="/tos">{titleText("Terms")}</a> ·{" "}
            <a href="/tos#pp">{titleText("Privacy")}</a> · <a href="/support">{titleText("Support")}</a>
          </footer>
        )}
      </body>
    </html>
  );
}
