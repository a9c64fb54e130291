/**
 * The translations in the browser load on demand: the build (islands/build.ts) gives each
 * domain/locales/<lang>/mod.ts a chunk of its own, which a page loads only when it is in that
 * language (`<html lang>`, preloaded by the server), so an English page carries no translation
 * and a Spanish one only Spanish. The catalogues see the translation once it is in; islands
 * hydrate after that (islands/client.ts), so the browser's render matches the server's.
 */

const pending: Promise<unknown>[] = [];

/** Records a translation being loaded (called by the build's stand-in for a locale module). */
export function loadingLocale(load: Promise<unknown>): void {
  pending.push(load);
}

/** Runs `fn` once the page's translation is in: at once when none is loading (an English page). */
export function afterLocales(fn: () => void): void {
  if (!pending.length) return fn();
  // A translation that failed to load leaves the English texts: the page still works.
  Promise.all(pending).then(fn, fn);
}
