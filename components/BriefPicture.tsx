/** A member's first public picture at a given width, or a placeholder when they have none. */

import { type PicScale, profilePicUrl } from "../domain/format.ts";
import { TEXTS } from "../domain/texts.ts";

export interface BriefPictureProps {
  picId: string | undefined;
  name: string;
  /** The width fetched at 1x; 2x screens get the next size. */
  scale: 256 | 512 | 1024;
  /** Use the unblurred NSFW route (the member chose Showing NSFW). */
  nsfw: boolean;
  /** Load at once (the first screenful) instead of when scrolled near. */
  eager?: boolean;
  /** The page's largest first picture (the grid's first row): fetched before anything else the page loads. */
  first?: boolean;
}

/**
 * The addresses of a brief's picture at 1x and 2x, as the grid fetched them: a profile opened from
 * the grid shows that copy from the cache at once, under its larger one.
 */
export function briefPicUrls(picId: string, scale: 256 | 512 | 1024, nsfw: boolean): [string, string] {
  return [profilePicUrl(picId, scale, nsfw), profilePicUrl(picId, (scale * 2) as PicScale, nsfw)];
}

/** The picture fills its box (object-fit cover, styled by the caller's CSS). */
export function BriefPicture({ picId, name, scale, nsfw, eager = false, first = false }: BriefPictureProps) {
  if (!picId) {
    // A designed placeholder: a soft silhouette on the brand's gradient, never a giant letter.
    return (
      <span className="pic-placeholder" role="img" aria-label={TEXTS.noPicture(name)}>
        <svg viewBox="0 0 100 125" aria-hidden="true" focusable="false">
          <circle cx="50" cy="44" r="20" />
          <path d="M14 125c0-25 16-42 36-42s36 17 36 42z" />
        </svg>
      </span>
    );
  }
  const [x1, x2] = briefPicUrls(picId, scale, nsfw);
  return (
    <img
      src={x1}
      srcSet={`${x1} 1x, ${x2} 2x`}
      alt={name}
      loading={eager || first ? "eager" : "lazy"}
      fetchPriority={first ? "high" : undefined}
      decoding="async"
      draggable={false}
    />
  );
}
