/**
 * Paging at the end of a list: a sentinel that asks for more when it scrolls into view
 * (IntersectionObserver), an optional 'Load More' button, and the end text.
 */

import { type RefObject, useEffect, useRef, useState } from "react";
import { DISCOVERY_TEXTS } from "../domain/discovery.ts";

/**
 * Calls `onVisible` while the element is within `margin` of the viewport and `enabled`: when it
 * comes into view, and again whenever `enabled` turns back on while it is still in view (a page
 * arrived but did not push the end out of view). The observer lives as long as the element, so
 * no notification is lost while `enabled` is off.
 */
function useOnVisible(
  ref: RefObject<Element | null>,
  onVisible: () => void,
  enabled: boolean,
  margin = "400px",
): void {
  const [visible, setVisible] = useState(false);
  const cb = useRef(onVisible);
  cb.current = onVisible;
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === "undefined") return;
    const io = new IntersectionObserver((entries) => setVisible(entries[entries.length - 1].isIntersecting), {
      rootMargin: margin,
    });
    io.observe(el);
    return () => io.disconnect();
  }, [ref, margin]);
  useEffect(() => {
    if (visible && enabled) cb.current();
  }, [visible, enabled]);
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
