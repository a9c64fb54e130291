/**
 * Paging at the end of a list: a sentinel that asks for more when it scrolls into view
 * (IntersectionObserver), an optional 'Load More' button, and the end text.
 */

import { type RefObject, useEffect, useRef } from "react";
import { DISCOVERY_TEXTS } from "../domain/discovery.ts";

/** True when `el` is within `margin` px of the viewport. */
function nearViewport(el: Element, margin: number): boolean {
  const r = el.getBoundingClientRect();
  return r.top <= innerHeight + margin && r.bottom >= -margin;
}

/**
 * Calls `onVisible` while `enabled` and the element is within `margin` px of the viewport, asking
 * the layout itself each time rather than remembering what the observer last said: when the
 * observer sees it cross into view, on every scroll, and after every render (a page arrived, a
 * fetch ended, `enabled` turned back on). The observer alone tells only of crossings: on a busy
 * machine a page can arrive and the member scroll to the end again within one frame, so the end
 * never leaves the margin as far as the observer can tell, and a remembered "visible" either asks
 * for a page the member has not reached (the end was pushed out of view) or, when the turn of
 * `enabled` was never rendered (the fetch ended before the render that would have shown it), asks
 * for nothing ever again while the end sits in view.
 */
function useOnVisible(
  ref: RefObject<Element | null>,
  onVisible: () => void,
  enabled: boolean,
  margin = 400,
): void {
  const check = useRef(() => {});
  // Asked since the last render: scrolls before the render that turns `enabled` off ask no more.
  const asked = useRef(false);
  check.current = () => {
    const el = ref.current;
    if (enabled && !asked.current && el && nearViewport(el, margin)) {
      asked.current = true;
      onVisible();
    }
  };
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const run = () => check.current();
    const io = typeof IntersectionObserver === "undefined"
      ? null
      : new IntersectionObserver(run, { rootMargin: `${margin}px` });
    io?.observe(el);
    // Capture: a scroll of any scroller the list sits in, not only the page's.
    document.addEventListener("scroll", run, { capture: true, passive: true });
    addEventListener("resize", run, { passive: true });
    return () => {
      io?.disconnect();
      document.removeEventListener("scroll", run, { capture: true });
      removeEventListener("resize", run);
    };
  }, [ref, margin]);
  // After every render: a render follows every change of the query (a page, the end of a fetch).
  // While a page is being fetched `enabled` is off, so this asks once per page.
  useEffect(() => {
    asked.current = false;
    check.current();
  });
}

export interface LoadMoreProps {
  /** More pages exist. */
  hasMore: boolean;
  /** A page is being fetched. */
  loading: boolean;
  /** The last page failed: the scroll trigger stops and a retry button shows. */
  failed?: boolean;
  onMore: () => void;
  /** Show the 'Load More' button besides the scroll trigger. */
  button?: boolean;
  /** Shown when nothing more exists. */
  endText: string;
}

/** The end of a paged list. */
export function LoadMore({ hasMore, loading, failed = false, onMore, button = false, endText }: LoadMoreProps) {
  const sentinel = useRef<HTMLDivElement>(null);
  useOnVisible(sentinel, onMore, hasMore && !loading && !failed);
  let content;
  if (!hasMore) content = <p className="end-text">{endText}</p>;
  else if (button || failed) {
    content = (
      <button type="button" onClick={onMore} disabled={loading} aria-busy={loading}>
        {loading ? DISCOVERY_TEXTS.loadingMore : failed ? DISCOVERY_TEXTS.retry : DISCOVERY_TEXTS.loadMore}
      </button>
    );
  } else if (loading) content = <p role="status">{DISCOVERY_TEXTS.loadingMore}</p>;
  return <div className="load-more" ref={sentinel}>{content}</div>;
}
