/**
 * The URL of a route of the API contract (domain/contract.ts), free of zod so islands can use it
 * without shipping the schemas.
 */

import type { ApiRoute, NOT_JSON } from "./contract.ts";

type ParamsOf<P extends string> = P extends `${string}:${infer Name}/${infer Rest}` ? Name | ParamsOf<`/${Rest}`>
  : P extends `${string}:${infer Name}` ? Name
  : never;
type PathOf<R extends string> = R extends `${string} ${infer P}` ? P : never;

/** A route of the contract, JSON or not. */
export type AnyRoute = ApiRoute | keyof typeof NOT_JSON;
/** The path parameters a route takes, by name. */
export type RouteParams<R extends AnyRoute> = Record<ParamsOf<PathOf<R>>, string>;

/**
 * The URL of a route of the contract, its `:params` filled (encoded) and an optional query: a
 * route that is renamed or loses a parameter fails to type-check where it is called.
 */
export function apiPath<R extends AnyRoute>(
  route: R,
  params: RouteParams<R>,
  query?: Record<string, string | number | undefined>,
): string {
  const path = route.slice(route.indexOf(" ") + 1).replace(
    /:(\w+)/g,
    (_, name: string) => encodeURIComponent((params as Record<string, string>)[name]),
  );
  const q = Object.entries(query ?? {}).filter(([, v]) => v !== undefined).map(([k, v]) =>
    `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`
  );
  return q.length ? `${path}?${q.join("&")}` : path;
}
