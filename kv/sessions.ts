/**
 * Sessions: a random 256-bit token in a cookie; the store keeps only its SHA-256.
 * They end on logout, when idle too long, and at an absolute age.
 */

import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { isId, newId, randomToken, sha256Hex } from "./ids.ts";
import { now } from "./clock.ts";
import { forgetHere, forgetKept, keep, keepingReads, keptCopy, readBegins } from "./kept.ts";
import { setNewest } from "../domain/newest.ts";
import { addEvent, eventBus } from "./events.ts";

const HOUR = 3_600_000, DAY = 24 * HOUR;
/** Idle and absolute lifetimes: "remember me" keeps a member logged in longer. */
export const SESSION_LIFETIMES = {
  remember: { idleMs: 30 * DAY, absoluteMs: 90 * DAY },
  once: { idleMs: 12 * HOUR, absoluteMs: 7 * DAY },
} as const;
/** lastSeen is written at most this often. */
const TOUCH_EVERY_MS = 5 * 60_000;
/**
 * How long a session started by a login link counts as a fresh login: within it, changing the
 * email or password and ending other sessions need no current password (the link proved the
 * mailbox, the recovery factor). After it, they need the current password, or a new link.
 */
export const FRESH_LINK_LOGIN_MS = 10 * 60_000;

/** How a session was started. */
export type LoginMethod = "link" | "password" | "passkey";

/** A stored session. */
export interface Session {
  id: string;
  accountId: string;
  remember: boolean;
  tsCreated: number;
  lastSeen: number;
  /** A short description of the device (browser and OS), never the address. */
  device: string;
  /** How it was started (absent on sessions older than this field: never a fresh login). */
  via?: LoginMethod;
}

/**
 * The account a session token names in front of its secret (tokens made before it name none):
 * only a hint, to read the account beside the session, and believed only once the session read
 * says the same.
 */
export function accountHint(token: string): string | null {
  const dot = token.indexOf(".");
  const id = dot > 0 ? token.slice(0, dot) : "";
  return isId(id) ? id : null;
}

/** Starts a session; returns the secret token for the cookie. */
export async function createSession(
  accountId: string,
  remember: boolean,
  device: string,
  via?: LoginMethod,
): Promise<{ token: string; session: Session }> {
  // The account's id leads the secret: a request reads the session and its account together (`accountHint`).
  const token = `${accountId}.${randomToken(32)}`;
  const tokenHash = await sha256Hex(token);
  const t = now();
  const session: Session = {
    id: newId(),
    accountId,
    remember,
    tsCreated: t,
    lastSeen: t,
    device: device.slice(0, 120),
    ...(via ? { via } : {}),
  };
  const life = remember ? SESSION_LIFETIMES.remember : SESSION_LIFETIMES.once;
  await kv().atomic()
    .set(keys.session(tokenHash), session, { expireIn: life.absoluteMs })
    .set(keys.sessionByAccount(accountId, session.id), tokenHash, { expireIn: life.absoluteMs })
    .commit();
  return { token, session };
}

// --- sessions kept a minute in the instance (kv/kept.ts)

// An instance reuses a session it read for a few seconds (kv/kept.ts, when the server keeps reads).
// Ending a session (logout, a new password, "end other sessions", a suspension, a deletion) adds a
// forget of its token's hash to the same commit: every instance that keeps the session forgets it
// when its tail of the change log reads it, within `KEPT_REVOKE_MS` (at once on the instance that
// ended it).

/**
 * The live session of a token, refreshing lastSeen (unless `touch` is false: a request that must
 * write nothing naming its caller); null if unknown, idle too long or too old.
 */
export async function getSession(token: string, { touch = true }: { touch?: boolean } = {}): Promise<Session | null> {
  if (!token || token.length > 100) return null;
  const tokenHash = hashesOfTokens.get(token) ?? await tokenHashOf(token);
  const kept = usableKept(tokenHash, touch);
  if (kept) return kept;
  const began = readBegins();
  const entry = await kv().get<Session>(keys.session(tokenHash));
  const s = entry.value;
  if (!s) return null;
  const life = s.remember ? SESSION_LIFETIMES.remember : SESSION_LIFETIMES.once;
  const t = now();
  if (t - s.lastSeen > life.idleMs || t - s.tsCreated > life.absoluteMs) {
    await endSessionByHash(s.accountId, tokenHash, s.id);
    return null;
  }
  if (touch && t - s.lastSeen > TOUCH_EVERY_MS) {
    const left = Math.max(1000, s.tsCreated + life.absoluteMs - t);
    const touched = { ...s, lastSeen: t };
    const res = await kv().atomic().check(entry).set(entry.key, touched, { expireIn: left }).commit();
    if (res.ok) keep("session", tokenHash, touched, began);
    return s;
  }
  keep("session", tokenHash, s, began);
  return s;
}

/**
 * `getSession`'s answer without a wait, when it needs no store read: the token was hashed lately and
 * its session is kept, within its lifetimes and not due a lastSeen write. Undefined otherwise
 * (then `getSession`).
 */
export function keptSession(token: string, touch: boolean): Session | undefined {
  const tokenHash = hashesOfTokens.get(token);
  return tokenHash === undefined ? undefined : usableKept(tokenHash, touch);
}

/** The kept session of a token's hash, if `getSession` may answer with it as it is. */
function usableKept(tokenHash: string, touch: boolean): Session | undefined {
  const kept = keptCopy<Session>("session", tokenHash);
  if (!kept) return undefined;
  const life = kept.remember ? SESSION_LIFETIMES.remember : SESSION_LIFETIMES.once;
  const t = now();
  // Within its lifetimes and not due a lastSeen write: as read; else read it again.
  const fresh = t - kept.lastSeen <= (touch ? TOUCH_EVERY_MS : life.idleMs);
  return fresh && t - kept.tsCreated <= life.absoluteMs ? kept : undefined;
}

/**
 * The hashes of the tokens seen lately, newest last (a signed-in call hashed its token each time:
 * about a tenth of the fixed cost of a call). Only in an instance that keeps reads (a server);
 * holds no more than the tokens its requests carry anyway, and forgets the oldest past the bound.
 */
const hashesOfTokens = new Map<string, string>();
const HASHES_KEPT = 10_000;

async function tokenHashOf(token: string): Promise<string> {
  const hash = await sha256Hex(token);
  if (keepingReads()) setNewest(hashesOfTokens, token, hash, HASHES_KEPT);
  return hash;
}

async function endSessionByHash(accountId: string, tokenHash: string, id: string): Promise<void> {
  const op = kv().atomic();
  const hashes = endSessionsIn(op, accountId, [{ id, tokenHash }]);
  await op.commit();
  forgetHere("session", hashes);
}

/** The change log's recipient of ended sessions: no member id, so no page ever receives them. */
const SESSIONS_CHANNEL = "#sessions";

/**
 * Calls `fn` with the ids of sessions as they end, on any instance (from the change log): the
 * live streams of those sessions close. Returns the unsubscribe.
 */
export function onSessionsEnded(fn: (ids: readonly string[]) => void): () => void {
  return eventBus().subscribe(SESSIONS_CHANNEL, (e) => {
    if (e.type === "sessions-ended") fn(e.ids);
  });
}

/** Ends the session of a token (logout). */
export async function endSession(token: string): Promise<void> {
  const tokenHash = await sha256Hex(token);
  const s = (await kv().get<Session>(keys.session(tokenHash))).value;
  if (s) await endSessionByHash(s.accountId, tokenHash, s.id);
}

/** The account's live sessions, oldest first. */
export async function listSessions(accountId: string): Promise<Session[]> {
  const out: Session[] = [];
  for await (const e of kv().list<string>({ prefix: keys.sessionsByAccount(accountId) })) {
    const s = (await kv().get<Session>(keys.session(e.value))).value;
    if (s) out.push(s);
  }
  return out;
}

/** Ends one of the account's sessions by its public id; false if it is not theirs. */
export async function endSessionById(accountId: string, id: string): Promise<boolean> {
  const tokenHash = (await kv().get<string>(keys.sessionByAccount(accountId, id))).value;
  if (!tokenHash) return false;
  await endSessionByHash(accountId, tokenHash, id);
  return true;
}

/** One of the account's live sessions by its public id, or null. */
export async function getSessionById(accountId: string, id: string): Promise<Session | null> {
  const tokenHash = (await kv().get<string>(keys.sessionByAccount(accountId, id))).value;
  if (!tokenHash) return null;
  const s = (await kv().get<Session>(keys.session(tokenHash))).value;
  return s && s.accountId === accountId ? s : null;
}

/** Until when a session counts as a fresh login-link login (`FRESH_LINK_LOGIN_MS`), or null. */
export function freshLinkLoginUntil(s: Session): number | null {
  if (s.via !== "link") return null;
  const until = s.tsCreated + FRESH_LINK_LOGIN_MS;
  return now() < until ? until : null;
}

/** The account's sessions by public id and token hash (their index, without reading each session). */
export async function sessionHandles(accountId: string): Promise<SessionHandle[]> {
  const out: SessionHandle[] = [];
  for await (const e of kv().list<string>({ prefix: keys.sessionsByAccount(accountId) })) {
    out.push({ id: String(e.key[e.key.length - 1]), tokenHash: e.value });
  }
  return out;
}

/** A session as its account's index holds it. */
export interface SessionHandle {
  id: string;
  tokenHash: string;
}

/**
 * Adds the end of `sessions` to `op` (2 deletes each, the forget of every instance's kept copy,
 * and the event that closes their live streams); after the commit, call
 * `forgetHere("session", hashes)` with the hashes it returns.
 */
export function endSessionsIn(
  op: Deno.AtomicOperation,
  accountId: string,
  sessions: readonly SessionHandle[],
): string[] {
  for (const o of sessions) op.delete(keys.session(o.tokenHash)).delete(keys.sessionByAccount(accountId, o.id));
  const hashes = sessions.map((o) => o.tokenHash);
  forgetKept(op, "session", hashes);
  if (sessions.length) addEvent(op, [SESSIONS_CHANNEL], { type: "sessions-ended", ids: sessions.map((o) => o.id) });
  return hashes;
}

/** Ends every session of the account but `keepId` (its current one); returns how many ended. */
export async function endOtherSessions(accountId: string, keepId: string): Promise<number> {
  const others = (await sessionHandles(accountId)).filter((o) => o.id !== keepId);
  for (let i = 0; i < others.length; i += 50) {
    const op = kv().atomic();
    const hashes = endSessionsIn(op, accountId, others.slice(i, i + 50));
    await op.commit();
    forgetHere("session", hashes);
  }
  return others.length;
}
