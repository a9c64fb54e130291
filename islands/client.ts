/** The island loader's browser half for React islands: hydrates every marker of one island with its JSON props. */

import { type ComponentType, createElement, type ReactNode, useEffect } from "react";
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
 * in (islands/locales.ts). Called by each island's bundle.
 */
// deno-lint-ignore no-explicit-any
export function hydrateIslands(name: string, Component: ComponentType<any>): void {
  afterLocales(() => {
    for (const { el, props } of markers(name)) {
      hydrateRoot(el, createElement(Hydrated, { el }, createElement(Component, props)));
    }
  });
}
