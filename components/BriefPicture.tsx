/** A member's first public picture at a given width, or a placeholder when they have none. */

import { type PicScale, profilePicUrl } from "../domain/format.ts";

export interface BriefPictureProps {
  picId: string | undefined;
  name: string;
  /** The width fetched at 1x; 2x screens get the next size. */
  scale: 256 | 512 | 1024;
  /** Use the unblurred NSFW route (the member chose Showing NSFW). */
  nsfw: boolean;
  /** Load at once (the first screenful) instead of when scrolled near. */
  eager?: boolean;
}

/** The picture fills its box (object-fit cover, styled by the caller's CSS). */
export function BriefPicture({ picId, name, scale, nsfw, eager = false }: BriefPictureProps) {
  if (!picId) {
    return (
      <span className="pic-placeholder" role="img" aria-label={`${name} has no picture`}>
        {Array.from(name.trim())[0]?.toUpperCase() ?? "?"}
      </span>
    );
  }
  const double = (scale * 2) as PicScale;
  return (
    <img
      src={profilePicUrl(picId, scale, nsfw)}
      srcSet={`${profilePicUrl(picId, scale, nsfw)} 1x, ${profilePicUrl(picId, double, nsfw)} 2x`}
      alt={name}
      loading={eager ? "eager" : "lazy"}
      decoding="async"
      draggable={false}
    />
  );
}
