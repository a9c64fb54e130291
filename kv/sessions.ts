/**
 * Sessions: a random 256-bit token in a cookie; the store keeps only its SHA-256.
 * They end on logout, when idle too long, and at an absolute age.
 */

import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { newId, randomToken, sha256Hex } from "./ids.ts";
import { now } from "./clock.ts";
import { addEvent, type EventBus, eventBus } from "./events.ts";

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

/** Starts a session; returns the secret token for the cookie. */
export async function createSession(
  accountId: string,
  remember: boolean,
  device: string,
  via?: LoginMethod,
): Promise<{ token: string; session: Session }> {
  const token = randomToken(32);
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

// --- sessions kept a few seconds in the instance

/**
 * How long an instance reuses a session it read (`startSessionCache`). Ending a session (logout,
 * a new password, "end other sessions", a suspension, a deletion) writes an event to the change
 * log (kv/events.ts) in the same commit; every instance that keeps the session forgets it when
 * its tail of the log reads the event.
 */
export const SESSION_CACHE_MS = 5000;
/**
 * A kept session is used only while this instance's tail of the change log began within this
 * time: a session ended on any instance stops working on every other one within it (and at once
 * on the instance that ended it). Past half of it, a request starts a tail (single flight).
 */
export const SESSION_REVOKE_MS = 750;
/** The change log's recipient of session endings: no member id, so no page ever receives them. */
const SESSIONS_CHANNEL = "#sessions";
const SESSION_CACHE_MAX = 50_000;

interface SessionCache {
  bus: EventBus;
  /** By token hash: the session as read, and when (performance.now()). */
  byHash: Map<string, { s: Session; at: number }>;
  /** Session id -> token hash, to forget by the ids a log event names. */
  byId: Map<string, string>;
  /** When (performance.now()) a session was last forgotten: a read begun before it keeps nothing. */
  forgotAt: number;
}
const sessionCaches = new WeakMap<Deno.Kv, SessionCache>();

/**
 * Keeps the sessions this instance reads for up to `SESSION_CACHE_MS` (the app's server calls it
 * once; without it, as in the in-process tests, every request reads its session from KV). Starts
 * the instance's tail of the change log.
 */
export function startSessionCache(): void {
  const db = kv();
  if (sessionCaches.has(db)) return;
  const cache: SessionCache = { bus: eventBus(), byHash: new Map(), byId: new Map(), forgotAt: -Infinity };
  sessionCaches.set(db, cache);
  cache.bus.subscribe(SESSIONS_CHANNEL, (e) => {
    if (e.type === "sessions-ended") forgetSessions(cache, e.ids);
  });
}

function forgetSessions(cache: SessionCache, ids: readonly string[]): void {
  cache.forgotAt = performance.now();
  for (const id of ids) {
    const hash = cache.byId.get(id);
    if (hash === undefined) continue;
    cache.byId.delete(id);
    cache.byHash.delete(hash);
  }
}

/** This instance's kept copy of a session, if it may still be used. */
function keptSession(tokenHash: string): Session | null {
  const cache = sessionCaches.get(kv());
  if (!cache) return null;
  const t = performance.now();
  const synced = t - cache.bus.syncedAt;
  if (synced > SESSION_REVOKE_MS / 2) void cache.bus.tail();
  if (synced > SESSION_REVOKE_MS) return null;
  const kept = cache.byHash.get(tokenHash);
  if (!kept) return null;
  if (t - kept.at > SESSION_CACHE_MS) {
    cache.byHash.delete(tokenHash);
    cache.byId.delete(kept.s.id);
    return null;
  }
  return kept.s;
}

function keepSession(tokenHash: string, s: Session, readBegan: number): void {
  const cache = sessionCaches.get(kv());
  if (!cache || cache.forgotAt >= readBegan) return;
  if (cache.byHash.size >= SESSION_CACHE_MAX) {
    const [oldest, o] = cache.byHash.entries().next().value!;
    cache.byHash.delete(oldest);
    cache.byId.delete(o.s.id);
  }
  cache.byHash.delete(tokenHash);
  cache.byHash.set(tokenHash, { s, at: readBegan });
  cache.byId.set(s.id, tokenHash);
}

/** The live session of a token, refreshing lastSeen; null if unknown, idle too long or too old. */
export async function getSession(token: string): Promise<Session | null> {
  if (!token || token.length > 100) return null;
  const tokenHash = await sha256Hex(token);
  const kept = keptSession(tokenHash);
  if (kept) {
    const life = kept.remember ? SESSION_LIFETIMES.remember : SESSION_LIFETIMES.once;
    const t = now();
    // Within its lifetimes and not due a lastSeen write: as read; else read it again.
    if (t - kept.lastSeen <= TOUCH_EVERY_MS && t - kept.tsCreated <= life.absoluteMs) return kept;
  }
  const began = performance.now();
  const entry = await kv().get<Session>(keys.session(tokenHash));
  const s = entry.value;
  if (!s) return null;
  const life = s.remember ? SESSION_LIFETIMES.remember : SESSION_LIFETIMES.once;
  const t = now();
  if (t - s.lastSeen > life.idleMs || t - s.tsCreated > life.absoluteMs) {
    await endSessionByHash(s.accountId, tokenHash, s.id);
    return null;
  }
  if (t - s.lastSeen > TOUCH_EVERY_MS) {
    const left = Math.max(1000, s.tsCreated + life.absoluteMs - t);
    const touched = { ...s, lastSeen: t };
    const res = await kv().atomic().check(entry).set(entry.key, touched, { expireIn: left }).commit();
    if (res.ok) keepSession(tokenHash, touched, began);
    return s;
  }
  keepSession(tokenHash, s, began);
  return s;
}

/** Adds the ending of sessions `ids` to `op`: every instance forgets its copies when it commits. */
function endingEvent(op: Deno.AtomicOperation, ids: string[]): void {
  addEvent(op, [SESSIONS_CHANNEL], { type: "sessions-ended", ids });
}

async function endSessionByHash(accountId: string, tokenHash: string, id: string): Promise<void> {
  const op = kv().atomic().delete(keys.session(tokenHash)).delete(keys.sessionByAccount(accountId, id));
  endingEvent(op, [id]);
  await op.commit();
  const cache = sessionCaches.get(kv());
  if (cache) forgetSessions(cache, [id]);
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

/** Ends every session of the account but `keepId` (its current one); returns how many ended. */
export async function endOtherSessions(accountId: string, keepId: string): Promise<number> {
  const others: { id: string; tokenHash: string }[] = [];
  for await (const e of kv().list<string>({ prefix: keys.sessionsByAccount(accountId) })) {
    const id = String(e.key[e.key.length - 1]);
    if (id !== keepId) others.push({ id, tokenHash: e.value });
  }
  const cache = sessionCaches.get(kv());
  for (let i = 0; i < others.length; i += 50) {
    const op = kv().atomic();
    const batch = others.slice(i, i + 50);
    for (const o of batch) {
      op.delete(keys.session(o.tokenHash)).delete(keys.sessionByAccount(accountId, o.id));
    }
    endingEvent(op, batch.map((o) => o.id));
    await op.commit();
    if (cache) forgetSessions(cache, batch.map((o) => o.id));
  }
  return others.length;
}
