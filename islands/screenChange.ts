/**
 * Between the app's screens in one page: the event and the link mark of a screen opened in the
 * page (islands/inPage.ts). Apart from the page transitions' handling (islands/viewTransitions.ts),
 * which only the header's script runs: what the tab bar and the discovery islands import from here
 * joins the chunk every member's screen loads, and the login page loads one file less.
 */

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
