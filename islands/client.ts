/** The island loader's browser half for React islands: hydrates every marker of one island with its JSON props. */

import { type ComponentType, createElement, type ReactNode, startTransition, useEffect } from "react";
import { hydrateRoot, type Root } from "react-dom/client";
import { markers, setReactHalf } from "./enhance.ts";
import { afterLocales } from "./locales.ts";

/** Marks its island hydrated once React has committed it (tests wait for `data-hydrated`). */
function Hydrated({ el, children }: { el: HTMLElement; children?: ReactNode }) {
  useEffect(() => el.setAttribute("data-hydrated", ""), [el]);
  return children;
}

/** The React islands whose bundles have run, by name. */
// deno-lint-ignore no-explicit-any
const loaded = new Map<string, ComponentType<any>>();
/** Each hydrated marker's root: a marker is hydrated once, and a screen that leaves the page is unmounted. */
const roots = new WeakMap<Element, Root>();

/**
 * Hydrates each `[data-island=name]` element with the component, once the page's translation is
 * in (islands/locales.ts) and the page has painted once: the server's HTML shows first, its photo
 * with it, and hydration comes after. On a page whose `<html>` says `data-hydration="slices"` (the
 * grid: its first view is whole in its HTML, and its islands read nothing another's effects
 * change), the page's first hydration runs as a transition: React hydrates in slices of a few
 * milliseconds and yields between them, where it would hold the main thread for the whole island
 * (a tap meanwhile hydrates the island it lands on at once, and is then handled). Elsewhere an
 * island hydrates in one go: as a transition the profile editor's islands failed to hydrate, one
 * island's effects changing what another, still hydrating, rendered.
 */
// deno-lint-ignore no-explicit-any
export function hydrateIslands(name: string, Component: ComponentType<any>): void {
  loaded.set(name, Component);
  afterLocales(() => afterFirstPaint(() => hydrateMarkers(name, document, location.pathname === sliced)));
}

/**
 * The path of the screen the page was loaded with, when its `<html>` says `data-hydration="slices"`:
 * its islands hydrate in slices, while a screen opened in the page later (islands/inPage.ts), at
 * another path, hydrates in one go, as on its own page.
 */
const sliced = globalThis.document?.documentElement.dataset.hydration === "slices" ? location.pathname : undefined;

/**
 * Hydrates the islands inside a screen opened in the page (islands/inPage.ts) whose bundles have
 * already run; an island new to the page hydrates when its bundle runs.
 */
function hydrateWithin(within: ParentNode): void {
  afterLocales(() => afterFirstPaint(() => loaded.forEach((_, name) => hydrateMarkers(name, within))));
}

/** Unmounts the islands inside a screen the page leaves: their timers, sockets and queries stop. */
function unmountWithin(within: ParentNode): void {
  for (const el of within.querySelectorAll("[data-island]")) {
    roots.get(el)?.unmount();
    roots.delete(el);
  }
}

setReactHalf({ hydrateWithin, unmountWithin });

function hydrateMarkers(name: string, within: ParentNode, slices = false): void {
  const Component = loaded.get(name)!;
  for (const { el, props } of markers(name, within)) {
    if (roots.has(el)) continue;
    const hydrate = () => {
      roots.set(el, hydrateRoot(el, createElement(Hydrated, { el }, createElement(Component, props))));
    };
    if (slices) startTransition(hydrate);
    else hydrate();
  }
}

/** Hydrations waiting for the first paint; all start in one task, as when each ran at once. */
let waiting: (() => void)[] | null = null;

/**
 * Runs `fn` once the page has had a frame to paint (a task after the next animation frame). The
 * islands of a page all start together: one hydrating and running its effects before another
 * has begun could change what the other renders and break its hydration. A prerendered page
 * waits for its activation, then paints first too: hydrating while it is prerendered would hold
 * its first paint whenever the tap comes before the hydration is over. A hidden page, which has
 * no frames, hydrates at once.
 */
function afterFirstPaint(fn: () => void): void {
  const prerendering = (document as Document & { prerendering?: boolean }).prerendering === true;
  if (typeof requestAnimationFrame !== "function" || (!prerendering && document.visibilityState === "hidden")) {
    return fn();
  }
  if (waiting) return void waiting.push(fn);
  waiting = [fn];
  const start = () =>
    requestAnimationFrame(() =>
      setTimeout(() => {
        const all = waiting ?? [];
        waiting = null;
        for (const run of all) run();
      }, 0)
    );
  if (prerendering) document.addEventListener("prerenderingchange", start, { once: true });
  else start();
}
