/**
 * API test kit: the app on a `:memory:` KV (or a file, or with TEST_KV=remote a remote one:
 * tests/remoteKv.ts), and members who register, log in and call the API.
 */

import { closeKv, kv, openKv } from "../kv/db.ts";
import { testKvLocation } from "./remoteKv.ts";
import { now, resetClock, shiftClock } from "../kv/clock.ts";
import { runDueJobs } from "../workers/jobs.ts";
import { handlers } from "../workers/run.ts";
import { listOutbox, type Mail } from "../kv/outbox.ts";
import { ACKNOWLEDGEMENTS } from "../domain/texts.ts";
import { createApp } from "../main.ts";
import { config } from "../config/config.ts";
import * as z from "zod";
import { RESPONSES } from "../domain/contract.ts";
import { keys } from "../kv/keys.ts";
import { type Account, getAccountByEmail, normalizeEmail, registerAccount, setOnboarding } from "../kv/accounts.ts";
import { isMailboxBanned } from "../kv/moderation.ts";
import { placeOf } from "../kv/origins.ts";
import { sendMailJob } from "../workers/mail.ts";
import { resolveClient } from "../routes/middleware.ts";
import { locale } from "../domain/i18n.ts";
import type { Profile } from "../domain/shapes/profiles.ts";

Deno.env.set("LOG_REQUESTS", "0");
Deno.env.set("DEV_OUTBOX_PRINT", "0");

export const ORIGIN = "http://localhost";
export const ALL_ACKS = ACKNOWLEDGEMENTS.map((a) => a.text);
/** How old a member's account is unless they are a newcomer: two days, past the first day's tighter limits. */
const ESTABLISHED_MS = 2 * 24 * 3_600_000;

/** Options of one call. */
export interface CallInit {
  cookie?: string;
  json?: unknown;
  form?: Record<string, string | Blob>;
  headers?: Record<string, string>;
  body?: BodyInit;
  /** The caller's network address, as a server connection would give it (default: none, seen as "local"). */
  address?: string;
}

/**
 * A test app on a fresh `:memory:` KV (with `TEST_KV=remote`, a fresh remote one: tests/remoteKv.ts),
 * or on the store at `path` when given: a KV file (a test that reads the file itself) or a KV
 * Connect URL.
 */
export async function testApp({ path }: { path?: string } = {}) {
  await openKv(path ?? await testKvLocation());
  resetClock();
  const app = createApp();

  async function call(method: string, path: string, init: CallInit = {}) {
    // A browser sends its page's origin with every write (the origin check refuses a signed-in
    // write without it); a call that names its own origin or Sec-Fetch-Site keeps them.
    const named = Object.keys(init.headers ?? {}).map((h) => h.toLowerCase());
    const write = !["GET", "HEAD", "OPTIONS"].includes(method);
    const headers: Record<string, string> = {
      ...(write && !named.includes("origin") && !named.includes("sec-fetch-site")
        ? { origin: config.publicOrigin ?? ORIGIN }
        : {}),
      ...init.headers,
    };
    if (init.cookie) headers.cookie = init.cookie;
    let body: BodyInit | undefined = init.body;
    if (init.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(init.json);
    } else if (init.form) {
      const fd = new FormData();
      for (const [k, v] of Object.entries(init.form)) fd.set(k, v);
      body = fd;
    }
    // What Deno.serve hands the app as its env: the connection's remote address (getConnInfo).
    const env = init.address ? { remoteAddr: { hostname: init.address, port: 40000, transport: "tcp" } } : undefined;
    const res = await app.request(ORIGIN + path, { method, headers, body }, env);
    const text = await res.text();
    let data: unknown = text;
    try {
      data = JSON.parse(text);
    } catch { /* not JSON */ }
    // The contract check: every 2xx JSON answer is what domain/contract.ts says it is.
    if (res.status < 300 && (res.headers.get("content-type") ?? "").includes("application/json")) {
      checkContract(method, path, res.status, data);
    }
    // deno-lint-ignore no-explicit-any
    return { status: res.status, data: data as any, headers: res.headers, text };
  }

  /** Registers an email and returns the token of the mailed login link. */
  async function registerAndGetToken(email: string, address?: string): Promise<string> {
    const r = await call("POST", "/api/auth/register", { json: { email, acknowledgements: ALL_ACKS }, address });
    if (r.status !== 202) throw new Error(`register failed: ${r.status} ${r.text}`);
    await runDueJobs(handlers);
    return await mailedToken(email);
  }

  /** The token of the login link the outbox holds for `email`. */
  async function mailedToken(email: string): Promise<string> {
    return tokenIn((await listOutbox()).find((m) => m.to === email.toLowerCase()));
  }

  /** The token of a mail's login link. */
  function tokenIn(mail: Mail | null | undefined): string {
    const token = mail?.text.match(/#token=([A-Za-z0-9_-]+)/)?.[1];
    if (!token) throw new Error("no login link in the outbox");
    return token;
  }

  /**
   * A new account made in the store as POST /api/auth/register makes one, through its own
   * functions: refused for a banned mailbox; its roles, consents, profile, indexes and registration
   * origin (from `address`, as the route hashes it) in one atomic (`registerAccount`, the route's),
   * dated `ageMs` back; its login link mailed by the mail job's own handler, whose kept mail gives
   * the token returned. Left out: the route's rate-limit windows (a test of those registers through
   * the route) and the queued job's own entries, which its run deletes. Five store calls (the
   * mailbox check, the atomic, the handler's account read, token and mail) instead of the route's
   * and the job queue's 35: on remote KV most of a test's calls were its members'.
   */
  async function madeAndMailed(email: string, o: { address?: string; ageMs: number; onboarding: boolean }) {
    const address = normalizeEmail(email);
    if (await isMailboxBanned(address)) throw new Error("register failed: 403 (a banned mailbox)");
    const place = await placeOf(resolveClient(o.address ?? "local", undefined, config.trustProxy).address, undefined);
    const created = await registerAccount(address, place, { onboarding: o.onboarding, tsCreated: now() - o.ageMs });
    if (!created) throw new Error(`register failed: ${address} is taken`);
    // The mail as the outbox keeps it, from the handler (not read back from the outbox: a store call fewer).
    const mail = await sendMailJob({ type: "mail", template: "login-link", accountId: created.id, lang: locale() });
    return tokenIn(mail);
  }

  /** The session cookie from a response's Set-Cookie. */
  function cookieOf(headers: Headers): string {
    const set = headers.get("set-cookie") ?? "";
    const m = set.match(/(__Host-sid|sid)=([^;]+)/);
    if (!m) throw new Error(`no session cookie in ${set}`);
    return `${m[1]}=${m[2]}`;
  }

  /**
   * A member, logged in: their cookie and ids. Their account is dated two days back (`ageMs`, if
   * given), as an established member's: a member younger than a day has tighter limits
   * (kv/ratelimit.ts `newMember*`), which only tests that say `{ newcomer: true }` get. `address`: where it registers
   * from. Onboarding is done, unless `{ onboarding: true }`. `remember`: logged in with "remember
   * me" (a session that outlasts days of a moved clock). A new email's account is made in the
   * store as registering makes it (`madeAndMailed`), then logged in with its mailed link through
   * POST /api/auth; a known one asks the register route for a link, as a member who lost theirs.
   * Without `given`, the email is a new one the kit makes up.
   */
  async function member(
    given?: string,
    opts: { newcomer?: boolean; address?: string; onboarding?: boolean; remember?: boolean; ageMs?: number } = {},
  ) {
    const email = given ?? `m${crypto.randomUUID().slice(0, 8)}@example.com`;
    const ageMs = opts.newcomer ? 0 : opts.ageMs ?? ESTABLISHED_MS;
    // An email the kit made up is new: only a given one is looked up (a store call fewer a member).
    const known = given !== undefined && await getAccountByEmail(normalizeEmail(email)) !== null;
    const token = known
      ? await registerAndGetToken(email, opts.address)
      // An established member went through onboarding (routes/pages/welcome.tsx) long ago.
      : await madeAndMailed(email, { address: opts.address, ageMs, onboarding: !!opts.onboarding });
    const r = await call("POST", "/api/auth", { form: opts.remember ? { token, rememberMe: "true" } : { token } });
    if (r.status !== 200) throw new Error(`token login failed: ${r.status} ${r.text}`);
    const profileId = r.data.profileId as string;
    if (known && ageMs) await backdateAccount(profileId, ageMs);
    if (known && !opts.onboarding) await endOnboarding(profileId);
    return { email, cookie: cookieOf(r.headers), profileId };
  }

  /** Ends a member's onboarding, as if they had gone through it. */
  async function endOnboarding(profileId: string) {
    const profile = (await kv().get<Profile>(keys.profile(profileId))).value!;
    await setOnboarding(profile.accountId, null);
  }

  /** Moves a member's account creation `ms` into the past. */
  async function backdateAccount(profileId: string, ms: number) {
    const profile = (await kv().get<Profile>(keys.profile(profileId))).value!;
    const entry = await kv().get<Account>(keys.account(profile.accountId));
    await kv().set(entry.key, { ...entry.value!, tsCreated: entry.value!.tsCreated - ms });
  }

  /**
   * Moves the clock to just after the start of a fixed window of `windowMs` (rate limits count in
   * such windows), so a test's burst of calls never straddles two windows.
   */
  function alignClock(windowMs: number) {
    shiftClock(windowMs - (now() % windowMs) + 1000);
  }

  return {
    app,
    call,
    alignClock,
    member,
    backdateAccount,
    cookieOf,
    registerAndGetToken,
    kv,
    close() {
      resetClock();
      closeKv();
    },
  };
}

/** Route patterns of the contract, as regular expressions, most specific (fewest parameters) first. */
const CONTRACT = Object.keys(RESPONSES).map((key) => {
  const [method, pattern] = key.split(" ");
  return {
    key,
    method,
    re: new RegExp("^" + pattern.replace(/:[^/]+/g, "[^/]+") + "$"),
    params: pattern.split(":").length,
  };
}).sort((a, b) => a.params - b.params);

/** Throws when a 2xx JSON answer of an /api/ route is not the one its contract documents. */
export function checkContract(method: string, path: string, status: number, data: unknown): void {
  const p = path.split("?")[0];
  if (!p.startsWith("/api/")) return;
  const route = CONTRACT.find((r) => r.method === method && r.re.test(p));
  if (!route) throw new Error(`contract: ${method} ${p} answered ${status} JSON but has no entry in RESPONSES`);
  const schema = (RESPONSES as Record<string, Record<number, z.ZodType>>)[route.key][status];
  if (!schema) throw new Error(`contract: ${route.key} answered ${status}, which RESPONSES does not document`);
  const r = schema.safeParse(data);
  if (!r.success) {
    throw new Error(`contract: ${route.key} ${status} does not match its schema:\n${z.prettifyError(r.error)}`);
  }
}
