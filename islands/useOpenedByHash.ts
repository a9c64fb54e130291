/**
 * Opens a panel when the page's address names it (`#notes`, `#actions`): on arrival, and each
 * time a link to it is followed, the same one again included (which fires no hashchange).
 */

import { useEffect, useRef } from "react";

export function useOpenedByHash(name: string, open: () => void): void {
  const latest = useRef(open);
  latest.current = open;
  useEffect(() => {
    const hash = `#${name}`;
    if (location.hash === hash) latest.current();
    const onClick = (e: MouseEvent) => {
      const a = (e.target as Element | null)?.closest?.("a");
      if (a && a.getAttribute("href") === hash) latest.current();
    };
    const onHash = () => location.hash === hash && latest.current();
    document.addEventListener("click", onClick);
    addEventListener("hashchange", onHash);
    return () => {
      document.removeEventListener("click", onClick);
      removeEventListener("hashchange", onHash);
    };
  }, [name]);
}
