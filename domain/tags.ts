/** Private tags (spec §5): the one cleaning rule, shared by the notes panel and the store. */

/** Bounds on tags, so a note stays far below the 64 KiB value limit. */
export const MAX_TAG_LENGTH = 40;
export const MAX_TAGS = 50;

/** Each tag trimmed, ignored if empty or already present (letter case aside), in the order given. */
export function cleanTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim();
    if (!tag || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    out.push(tag);
  }
  return out;
}
