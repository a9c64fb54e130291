/** Types shared by every route: the Hono environment and the session a request carries. */

import type { Brand } from "../domain/brand.ts";

/** Who is calling: set by the session middleware, null when logged out. */
export interface Caller {
  sessionId: string;
  accountId: string;
  profileId: string;
  email: string;
  name: string;
  roles: string[];
  hasPassword: boolean;
}

/** The Hono environment of this app. */
export interface AppEnv {
  Variables: {
    caller: Caller | null;
    /** This request's id: in the `x-request-id` header, error answers and the log line. */
    requestId: string;
    brand: Brand;
  };
}
