/** Types shared by every route: the Hono environment and the session a request carries. */

import type { Brand } from "../domain/brand.ts";
import type { Locale, PageLang } from "../domain/i18n.ts";
import type { OnboardingStep } from "../domain/onboarding.ts";
import type { AccountNotice } from "../domain/shapes/moderation.ts";
import type { AnswerKind } from "./compressBytes.ts";

/** Who is calling: set by the session middleware, null when logged out. */
export interface Caller {
  sessionId: string;
  accountId: string;
  profileId: string;
  email: string;
  name: string;
  roles: string[];
  hasPassword: boolean;
  /** When the account was created (members younger than a day have tighter limits). */
  accountCreated: number;
  /** The member's chosen language, if any (else the browser's). */
  language?: Locale;
  /** The onboarding step the member is on; absent: done. */
  onboarding?: OnboardingStep;
}

/** Where a request came from: its address, and whether that is this machine (routes/middleware.ts `resolveClient`). */
export interface ResolvedClient {
  readonly address: string;
  readonly thisMachine: boolean;
}

/** The Hono environment of this app. */
export interface AppEnv {
  Variables: {
    caller: Caller | null;
    /** This request's id: in the `x-request-id` header, error answers and the log line. */
    requestId: string;
    brand: Brand;
    /** A page's moderation notice for the caller (a warning to acknowledge, a review): read for pages only, begun with the caller's. */
    notice: Promise<AccountNotice | null> | null;
    /** A member's page: the event cursor its first live feed names, taken before the page's reads (kv/events.ts `pageCursor`). */
    eventsAfter: string | null;
    /** The language of this request: the member's, else Accept-Language's (domain/i18n.ts). */
    locale: PageLang;
    /** The caller's offline cache id, named on an API call's answer once it is made (routes/middleware.ts `nameOfflineCache`). */
    cacheId: string;
    /** Where the request came from, resolved once (routes/middleware.ts `clientAddress`). */
    client: ResolvedClient;
    /**
     * The answer `jsonAnswer` or `pageAnswer` made last, its text and its kind (routes/compression.ts):
     * its size known without reading it.
     */
    knownAnswer: Response;
    knownText: string;
    knownKind: AnswerKind;
    /** The route pattern of a route joined to the edge (routes/routeMatches.ts): telemetry's label. */
    route: string;
  };
}
