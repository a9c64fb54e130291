/**
 * Between the app's screens: every page opts into a cross-document view transition (static/css/motion.css),
 * but opening a profile skips it. A transition holds the new page's first paint until the old
 * page's snapshot is taken and the cross-fade has run, and the profile's photo is what a tap on a
 * tile or a name is for: it shows at once instead.
 */

/** The part of a `pageswap` event read here (not in every DOM typing yet). */
interface PageSwap extends Event {
  activation: { entry: { url: string } | null } | null;
  viewTransition: { skipTransition(): void } | null;
}

/** Is `url` a member's profile (/profile/:profileId)? */
export function opensProfile(url: string): boolean {
  return new URL(url, "http://x").pathname.startsWith("/profile/");
}

/** Skips the view transition of a navigation that opens a profile. */
export function openProfilesAtOnce(): void {
  addEventListener("pageswap", (e) => {
    const swap = e as PageSwap;
    const to = swap.activation?.entry?.url;
    if (to && opensProfile(to)) swap.viewTransition?.skipTransition();
  });
}

/**
 * Fired on the window when a screen opened in the page (islands/inPage.ts) changes the address
 * without a page load, as `popstate` is for Back and Forward: what shows the current screen (the
 * tab bar) follows both.
 */
export const SCREEN_CHANGED = "screenchange";

/**
 * The attribute that marks a link opened in the page (islands/inPage.ts); the speculation rules
 * (routes/speculation.ts) leave such links to it.
 */
export const IN_PAGE = "data-in-page";
