/**
 * The island loader's server half: `<Island of={Comp} props={...} />` renders the component
 * inside a marker element carrying its name and JSON props; the page then loads that island's
 * bundle, which hydrates every marker of its name (islands/client.ts).
 */

import type { ComponentType } from "react";

let collected: Set<string> | null = null;

/** Renders synchronously while recording which islands were used. */
export function collectIslands<T>(render: () => T): { result: T; islands: Set<string> } {
  const prev = collected;
  const islands = new Set<string>();
  collected = islands;
  try {
    return { result: render(), islands };
  } finally {
    collected = prev;
  }
}

/** An island: a component from islands/ (its default export, named as its file) with serialisable props. */
export function Island<P extends object>(
  { of: Of, props, hydrate = true }: { of: ComponentType<P>; props: P; hydrate?: boolean },
) {
  if (!hydrate) return <Of {...props} />;
  const name = Of.displayName ?? Of.name;
  collected?.add(name);
  return (
    <div data-island={name} data-props={JSON.stringify(props)} className="contents">
      <Of {...props} />
    </div>
  );
}
