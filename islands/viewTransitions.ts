/**
 * Between the app's pages: every page opts into a cross-document view transition
 * (static/css/motion.css), but opening a profile skips it. A transition holds the new page's first
 * paint until the old page's snapshot is taken and the cross-fade has run, and the profile's photo
 * is what a tap on a tile or a name is for: it shows at once instead. The header's script, on every
 * page, takes them in hand (islands/Header.enhance.ts).
 */

/** The part of a cross-document view transition used here (not in every DOM typing yet). */
interface Transition {
  skipTransition(): void;
  ready?: Promise<void>;
  finished?: Promise<void>;
  updateCallbackDone?: Promise<void>;
}

/** The part of a `pageswap` (leaving) or `pagereveal` (arriving) event read here. */
interface PageSwap extends Event {
  activation?: { entry: { url: string } | null } | null;
  viewTransition: Transition | null;
}

/** Is `url` a member's profile (/profile/:profileId)? */
export function opensProfile(url: string): boolean {
  return new URL(url, "http://x").pathname.startsWith("/profile/");
}

/**
 * Takes the transition of a page leaving or arriving in hand: a transition the browser aborts (the
 * page hidden, the viewport resized while it runs: "Transition was aborted because of invalid
 * state") is ended quietly, never an error of the page; none is started while the page is hidden
 * (nobody would see it, and it would be aborted); and one that opens a profile (`to`) is skipped.
 */
export function handleTransition(vt: Transition | null, to?: string | null): void {
  if (!vt) return;
  for (const p of [vt.ready, vt.finished, vt.updateCallbackDone]) p?.catch(() => {});
  if (document.visibilityState === "hidden" || (to && opensProfile(to))) vt.skipTransition();
}

/** Skips the view transition of a navigation that opens a profile, or of a hidden page; none fails the page. */
export function openProfilesAtOnce(): void {
  addEventListener("pageswap", (e) => {
    const swap = e as PageSwap;
    handleTransition(swap.viewTransition, swap.activation?.entry?.url);
  });
  addEventListener("pagereveal", (e) => handleTransition((e as PageSwap).viewTransition));
}
