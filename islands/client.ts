/** The island loader's browser half for React islands: hydrates every marker of one island with its JSON props. */

import { type ComponentType, createElement, type ReactNode, startTransition, useEffect } from "react";
import { hydrateRoot } from "react-dom/client";
import { markers } from "./enhance.ts";
import { afterLocales } from "./locales.ts";

/** Marks its island hydrated once React has committed it (tests wait for `data-hydrated`). */
function Hydrated({ el, children }: { el: HTMLElement; children?: ReactNode }) {
  useEffect(() => el.setAttribute("data-hydrated", ""), [el]);
  return children;
}

/**
 * Hydrates each `[data-island=name]` element with the component, once the page's translation is
 * in (islands/locales.ts) and the page has painted once: the server's HTML shows first, its photo
 * with it, and hydration comes after. Hydration runs as a transition: React then yields to the
 * browser every few milliseconds instead of hydrating an island in one long task, so what arrives
 * meanwhile is painted without waiting for it.
 */
// deno-lint-ignore no-explicit-any
export function hydrateIslands(name: string, Component: ComponentType<any>): void {
  afterLocales(() =>
    afterFirstPaint(() => {
      for (const { el, props } of markers(name)) {
        startTransition(() => {
          hydrateRoot(el, createElement(Hydrated, { el }, createElement(Component, props)));
        });
      }
    })
  );
}

/** Runs `fn` once the page has had a frame to paint (a task after the next animation frame). */
function afterFirstPaint(fn: () => void): void {
  if (typeof requestAnimationFrame !== "function" || document.visibilityState === "hidden") return fn();
  requestAnimationFrame(() => setTimeout(fn, 0));
}
