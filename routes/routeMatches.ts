/**
 * The app's routes matched once per method and path. Every request asks the router which handlers
 * match it, and the app's router (Hono's trie: a few of its routes keep Hono's regular-expression
 * router out) walks its tree of about 200 routes each time: about a tenth of a signed-in call's
 * JavaScript in a profile of the floor. Members call the same paths again and again (the ping, the
 * nearest members, their notifications), so the router's answer for a method and a path is kept:
 * it depends on nothing else, and Hono only reads it. Only paths without params are kept (a path
 * with an id in it is one of thousands); bounded, oldest out first; a long path is matched each
 * time and never kept.
 */

import type { Hono } from "hono";
import type { Env } from "hono/types";
import { setNewest } from "../domain/newest.ts";

/** The most matches kept (the app's fixed paths, and the unknown ones asked lately). */
export const MATCHES_KEPT = 2_000;
/** Paths longer than this are matched each time. */
const KEPT_PATH_MAX = 200;

/** Puts a keeper of its answers in front of `app`'s router (call it once every route is added). */
export function keepRouteMatches<E extends Env>(app: Hono<E>): void {
  const router = app.router;
  type Match = ReturnType<typeof router.match>;
  const kept = new Map<string, Match>();
  app.router = {
    name: router.name,
    add(method, path, handler) {
      // Hono's routers refuse a route once they have matched; were one added, nothing kept stays.
      kept.clear();
      router.add(method, path, handler);
    },
    match(method, path): Match {
      if (path.length > KEPT_PATH_MAX) return router.match(method, path);
      const key = method + " " + path;
      let match = kept.get(key);
      if (match !== undefined) return match;
      match = router.match(method, path);
      // A path with params in it (an id) is one of many: matched each time, never kept.
      if (match[0].every(withoutParams)) setNewest(kept, key, match, MATCHES_KEPT);
      return match;
    },
  };
}

/** Does a matched handler take no params from the path? */
function withoutParams([, params]: readonly [unknown, object]): boolean {
  for (const _ in params) return false;
  return true;
}
