/**
 * The island loader's browser half without React. Every island is a `[data-island=name]` marker
 * with its JSON props (components/Island.tsx); a React island's bundle hydrates its markers
 * (islands/client.ts), an enhanced one's runs its enhancement on them. An island is enhanced when
 * islands/<Name>.enhance.ts sits beside islands/<Name>.tsx: the server renders the component to
 * plain HTML and the browser loads only the small script that makes it work (islands/build.ts
 * picks the entry), so a page of enhanced islands loads no React at all.
 */

import { afterLocales } from "./locales.ts";

/** An enhancement: makes a marker's server-rendered HTML work, given the island's props. */
// deno-lint-ignore no-explicit-any
export type Enhancement<P = any> = (el: HTMLElement, props: P) => void;

/** Each `[data-island=name]` marker of the page (or of one part of it), with its props. */
export function markers(
  name: string,
  within: ParentNode = document,
): { el: HTMLElement; props: Record<string, unknown> }[] {
  return [...within.querySelectorAll<HTMLElement>(`[data-island="${name}"]`)].map((el) => ({
    el,
    props: JSON.parse(el.dataset.props ?? "{}"),
  }));
}

/** The enhanced islands whose scripts have run, by name. */
const loaded = new Map<string, Enhancement>();

/**
 * Runs the enhancement on each marker of its island, once the page's translation is in
 * (islands/locales.ts), and marks it hydrated (tests wait for `data-hydrated`).
 */
export function enhanceIslands(name: string, enhance: Enhancement): void {
  loaded.set(name, enhance);
  afterLocales(() => enhanceMarkers(name, document));
}

/**
 * Enhances the islands inside a screen opened in the page (islands/inPage.ts) whose scripts have
 * already run; an island new to the page is enhanced when its script runs.
 */
function enhanceWithin(within: ParentNode): void {
  afterLocales(() => loaded.forEach((_, name) => enhanceMarkers(name, within)));
}

/** What React's half of the loader (islands/client.ts) does for a screen opened in the page. */
interface ReactHalf {
  hydrateWithin(within: ParentNode): void;
  unmountWithin(within: ParentNode): void;
}

/**
 * React's half, once a React island's bundle has run in the page (islands/client.ts sets it as it
 * loads). Reached through here, not imported, so the server, which renders the islands that open
 * screens in the page (islands/inPage.ts), never loads react-dom/client; a page with no React
 * island has none hydrated to start or stop.
 */
let reactHalf: ReactHalf | undefined;

/** Called by islands/client.ts as it loads. */
export function setReactHalf(half: ReactHalf): void {
  reactHalf = half;
}

/** Starts the islands inside a screen opened in the page whose bundles or scripts have already run. */
export function startWithin(within: ParentNode): void {
  reactHalf?.hydrateWithin(within);
  enhanceWithin(within);
}

/** Stops the React islands inside a screen the page leaves: their timers, sockets and queries stop. */
export function stopWithin(within: ParentNode): void {
  reactHalf?.unmountWithin(within);
}

function enhanceMarkers(name: string, within: ParentNode): void {
  for (const { el, props } of markers(name, within)) {
    if (el.hasAttribute("data-hydrated")) continue;
    loaded.get(name)!(el, props);
    el.setAttribute("data-hydrated", "");
  }
}
