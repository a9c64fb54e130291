/**
 * The app's routes matched once per method and path. Every request asks the router which handlers
 * match it, and the app's router (Hono's trie: a few of its routes keep Hono's regular-expression
 * router out) walks its tree of about 200 routes each time: about a tenth of a signed-in call's
 * JavaScript in a profile of the floor. Members call the same paths again and again (the ping, the
 * nearest members, their notifications), so the router's answer for a method and a path is kept:
 * it depends on nothing else, and Hono only reads it. Only paths without params are kept (a path
 * with an id in it is one of thousands); bounded, oldest out first; a long path is matched each
 * time and never kept. A path that ends in an id (a profile, a picture) is matched once per route
 * instead: what the router found for one id under a beginning is the match of any other id there,
 * its param named anew (`byBeginning`).
 */

import type { Context, Hono, MiddlewareHandler, Next } from "hono";
import type { Env, ErrorHandler, H } from "hono/types";
import { setNewest } from "../domain/newest.ts";
import { ID_LENGTH, isId } from "../domain/ids.ts";

/** The most matches kept (the app's fixed paths, and the unknown ones asked lately). */
export const MATCHES_KEPT = 2_000;
/** Paths longer than this are matched each time. */
const KEPT_PATH_MAX = 200;

/** The app's one middleware in front of every route, and the app's error handler (`app.onError`'s). */
export interface FirstLayer<E extends Env> {
  first: MiddlewareHandler<E>;
  onError: ErrorHandler<E>;
}

/**
 * Puts a keeper of its answers in front of `app`'s router (call it once every route is added).
 * With `layer`, the app's one middleware in front of every route (routes/edge.ts): a match of
 * `first` and a single route after it is answered as one handler, `first` running the route as
 * its next step (`joined`), so Hono calls it directly rather than composing the two on each call
 * (a composition, two async steps and an async wrapper a call). A match of more (a sub-app's own
 * middleware) is composed by Hono as before.
 */
export function keepRouteMatches<E extends Env>(app: Hono<E>, layer?: FirstLayer<E>): void {
  const router = app.router;
  type Match = ReturnType<typeof router.match>;
  type Handler = Match[0][number][0];
  const kept = new Map<string, Match>();
  /**
   * By method and beginning (a path up to its last "/"), the one handler a path there ending in an
   * id matched and the name of its one param, that id: every id there matches it so (`byId`).
   */
  const byBeginning = new Map<string, { one: Handler; name: string }>();
  /** Whether every route's path is plain (see `plainPath`): only then is `byBeginning` kept. */
  let plain = app.routes.every((r) => plainPath(r.path));
  /** Each route's handler joined after `first`, made once per route. */
  const joinedTo = new WeakMap<Handler, Handler>();
  const join = (match: Match): Match => {
    const [handlers] = match;
    if (!layer || handlers.length !== 2 || handlers[0][0][0] !== layer.first) return match;
    const [routed, params] = handlers[1];
    let one = joinedTo.get(routed);
    if (!one) joinedTo.set(routed, one = [joined(layer, routed[0] as H, routed[1].path), routed[1]] as Handler);
    // The route's own params (and the router's stash of their values, when it keeps one).
    const entries = [[one, params]] as Match[0];
    return (match.length > 1 ? [entries, match[1]] : [entries]) as Match;
  };
  app.router = {
    name: router.name,
    add(method, path, handler) {
      // Hono's routers refuse a route once they have matched; were one added, nothing kept stays.
      kept.clear();
      byBeginning.clear();
      if (!plainPath(path)) plain = false;
      router.add(method, path, handler);
    },
    match(method, path): Match {
      if (path.length > KEPT_PATH_MAX) return join(router.match(method, path));
      // A path ending in an id: the match found for another id under the same beginning.
      const cut = path.lastIndexOf("/") + 1;
      const last = plain && cut > 0 && path.length - cut === ID_LENGTH ? path.slice(cut) : "";
      const beginning = isId(last) ? method + " " + path.slice(0, cut) : null;
      const known = beginning === null ? undefined : byBeginning.get(beginning);
      if (known !== undefined) return byId(known.one, known.name, last);
      const key = method + " " + path;
      let match = kept.get(key);
      if (match !== undefined) return match;
      match = join(router.match(method, path));
      // A path with params in it (an id) is one of many: matched each time, never kept.
      if (match[0].every(withoutParams)) setNewest(kept, key, match, MATCHES_KEPT);
      else if (beginning !== null && match.length === 1 && match[0].length === 1) {
        // One handler whose one param is the id: under this beginning, every id matches it so.
        const [one, params] = match[0][0];
        const names = Object.keys(params);
        if (names.length === 1 && (params as Record<string, string>)[names[0]] === last) {
          setNewest(byBeginning, beginning, { one, name: names[0] }, MATCHES_KEPT);
        }
      }
      return match;
    },
  };
  /** The match of `one` with its param `name` the id `id`, as Hono's trie makes it. */
  const byId = (one: Handler, name: string, id: string): Match => {
    const params = Object.create(null);
    params[name] = id;
    return [[[one, params]]] as unknown as Match;
  };
}

/**
 * Is a route's path plain: each segment a word that is not an id, or a param without a pattern of
 * its own or optional (`:id`), and "*" only at its end? Under plain paths alone, a path ending in
 * an id matches what any other id in its place matches (no route names an id, or a pattern only
 * some ids fit), and a beginning kept holds no id (none stands where a "*" takes any word).
 */
function plainPath(path: string): boolean {
  const parts = path.split("/");
  return parts.every((part, i) =>
    part === "*"
      ? i === parts.length - 1
      : part.startsWith(":")
      ? /^:\w+$/.test(part)
      : !isId(part) && !/[*:{}?]/.test(part)
  );
}

/**
 * `first` with `route` (of the pattern `path`) as its next step, as Hono's composition of the two
 * runs them: the route's answer becomes the context's answer unless it set one itself; an error it
 * throws is answered by the app's error handler there and then (within whatever `first` runs its
 * next step in, the request's language), and `first` goes on with that answer. The step waits only
 * for a route that answers with a promise: one that answers at once is done at once (no promise).
 */
function joined<E extends Env>({ first, onError }: FirstLayer<E>, route: H, path: string): MiddlewareHandler<E> {
  return (c: Context<E>, next: Next) => {
    // The route's pattern, named for telemetry's label (Hono's `routePath` maps every match per read).
    c.set("route" as never, path as never);
    const answeredBy = (res: unknown) => {
      if (res && !c.finalized) c.res = res as Response;
    };
    const step = () => {
      let res: unknown;
      try {
        res = route(c, next);
      } catch (err) {
        return answerErrorWith(onError, c, err);
      }
      if (!(res instanceof Promise)) return answeredBy(res);
      return res.then(answeredBy, (err) => answerErrorWith(onError, c, err));
    };
    const res = first(c, step as Next);
    // A first layer that hands on what its next step returns answers nothing itself when that step
    // was done at once: the answer is the context's.
    return res ?? (c.finalized ? c.res : res);
  };
}

/**
 * An error thrown before or in a route, answered by the app's error handler `onError` as Hono's
 * composition answers a layer's error: the answer becomes `c.res` (at once, or once the handler's
 * promise resolves: then a promise). Anything thrown that is not an Error goes on up.
 */
export function answerErrorWith<E extends Env>(
  onError: ErrorHandler<E>,
  c: Context<E>,
  err: unknown,
): void | Promise<void> {
  if (!(err instanceof Error)) throw err;
  c.error = err;
  const res = onError(err, c);
  if (!(res instanceof Promise)) {
    c.res = res;
    return;
  }
  return res.then((answer) => {
    c.res = answer;
  });
}

/** Does a matched handler take no params from the path? */
function withoutParams([, params]: readonly [unknown, object]): boolean {
  for (const _ in params) return false;
  return true;
}
