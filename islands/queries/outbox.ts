/**
 * The member's writes kept on the device until the server has them: private messages, likes
 * (of profiles and pictures), notes, Hot or Not votes and Bad Boy Dungeon's quiz and appeal. Each is written to the outbox (local storage, cleared at
 * logout with the rest of the member's data), then sent with its idempotency key, so a retry
 * after a lost answer or a lost connection is stored once (messages: kv/messages.ts checks the
 * key, as kv/games/dungeon.ts does for the quiz and the appeal; likes and notes are PUTs of a
 * whole state, the same however often it lands). A write that
 * finds no connection (or a server in trouble) stays queued and is shown as pending; the queue is
 * sent, in order, when the connection returns (the `online` event, or Background Sync through
 * the service worker, islands/sw/worker.ts), when a page loads and every `RETRY_MS`. A queued
 * write the server refuses (4xx) is kept as failed, shown with a retry, never dropped without the
 * member's say.
 */

import { useSyncExternalStore } from "react";
import { ApiFailure, call, keepLocally } from "./api.ts";
import type { ApiAnswer } from "../../domain/contract.ts";
import { WORKER_MESSAGES } from "../sw/caches.ts";
import type { NewMessage } from "../../domain/shapes/messages.ts";

type Message = ApiAnswer<"POST /api/message">;

/** The API writes that go through the outbox. */
export type QueuedRoute =
  | "POST /api/message"
  | "PUT /api/profile-like"
  | "PUT /api/profile-pic-like"
  | "PUT /api/profile-note"
  | "PUT /api/games/hotornot/vote"
  | "POST /api/games/dungeon/quiz"
  | "POST /api/games/dungeon/appeal";

/** One write waiting to be sent. */
export interface Queued {
  /** Its idempotency key: one send however often it is posted. */
  key: string;
  /** The write; absent: a private message (`message`). */
  route?: Exclude<QueuedRoute, "POST /api/message">;
  /** What a write other than a message sends. */
  json?: Record<string, unknown>;
  /** A private message (the conversation shows it while it waits). */
  message?: NewMessage;
  /**
   * Kept only while there is no connection: a server in trouble refuses it at once, as a 4xx
   * does (the note panel keeps the text and says so; Done tries again).
   */
  offlineOnly?: boolean;
  tsQueued: number;
  /** Why the server refused it, when it did. */
  failed?: string;
  /** The refusal's error code. */
  code?: string;
}

export const OUTBOX_STORAGE_KEY = "app-outbox";
/** How often a waiting queue is tried again while the page is open. */
export const RETRY_MS = 15_000;

const EMPTY: Queued[] = [];
let cache: Queued[] | undefined;
const watchers = new Set<() => void>();
/** What the server answered for writes sent from the queue, by key (for the send that waits). */
const delivered = new Map<string, unknown>();
/** Called with each message the server took (the screens refresh their lists). */
const onDelivered = new Set<(m: Message) => void>();
/** Called with each other write the server took, and its answer (a screen that showed it pending). */
const onWriteDelivered = new Set<(q: Queued, answer: unknown) => void>();

/** The list kept under `key` in `storage`; empty when there is none or it does not read as one. */
function storedList<T>(storage: Storage, key: string): T[] {
  try {
    const raw = JSON.parse(storage.getItem(key) ?? "[]");
    return Array.isArray(raw) ? raw as T[] : [];
  } catch {
    return [];
  }
}

function read(): Queued[] {
  return cache ??= storedList<Queued>(localStorage, OUTBOX_STORAGE_KEY);
}

function write(list: Queued[]) {
  if (list.length > (cache?.length ?? 0)) askForBackgroundSync();
  cache = list;
  if (list.length) keepLocally(OUTBOX_STORAGE_KEY, JSON.stringify(list));
  else localStorage.removeItem(OUTBOX_STORAGE_KEY);
  watchers.forEach((w) => w());
}

const update = (key: string, change: (q: Queued) => Queued | null) =>
  write(read().flatMap((q) => q.key !== key ? [q] : (change(q) ?? [])));

/**
 * Refusals that stay in the outbox when sent from the page (not only from the queue): the
 * recipient takes only verified members, and the sender can be verified and send it again.
 */
const KEPT_REFUSALS: ReadonlySet<string> = new Set(["recipient_verified_only"]);

/** A failure that leaves the message worth sending again later (no connection, server trouble). */
const isPassing = (e: unknown) => !(e instanceof ApiFailure) || e.status === 0 || e.status === 408 || e.status >= 500;

let flushing: Promise<void> | undefined;

/** Sends what waits, oldest first; stops at the first passing failure (the order is kept). */
function flushOutbox(): Promise<void> {
  // Cleared in a later microtask, so a flush with nothing to send cannot leave itself behind.
  flushing ??= sendQueued().finally(() => flushing = undefined);
  return flushing;
}

async function sendQueued(): Promise<void> {
  for (const q of read()) {
    if (q.failed) continue;
    try {
      const headers = { "idempotency-key": q.key };
      if (q.message) {
        const m = await call("POST /api/message", {}, { json: { ...q.message, tsCreated: q.tsQueued }, headers });
        delivered.set(q.key, m);
        // The screens show the stored message before the pending one goes: no gap between the two.
        onDelivered.forEach((f) => f(m));
      } else if (q.route) {
        const answer = await call(q.route, {}, { json: q.json, headers });
        delivered.set(q.key, answer);
        noteLanded(q, answer);
        onWriteDelivered.forEach((f) => f(q, answer));
      }
      update(q.key, () => null);
    } catch (e) {
      if (q.offlineOnly ? e instanceof ApiFailure && e.status === 0 : isPassing(e)) break;
      update(q.key, (x) => ({
        ...x,
        failed: e instanceof Error ? e.message : String(e),
        ...(e instanceof ApiFailure ? { code: e.code } : {}),
      }));
    }
  }
}

function newKey(): string {
  return crypto.randomUUID().replaceAll("-", "");
}

/**
 * Sends a message through the outbox: the stored message when the server took it, null when it
 * waits for a connection (shown as pending) or was refused in a way that can pass (KEPT_REFUSALS:
 * shown as failed, with its reason and Send again). Any other refusal (4xx) is thrown and the
 * message leaves the queue: the composer still holds its text and shows why.
 */
export function sendThroughOutbox(message: NewMessage): Promise<ApiAnswer<"POST /api/message"> | null> {
  return queueAndSend({ key: newKey(), message, tsQueued: Date.now() }) as Promise<
    ApiAnswer<"POST /api/message"> | null
  >;
}

/**
 * Sends a like or a note through the outbox: the server's answer when it took it, null when it
 * waits for a connection (shown as pending: `useQueuedWrite`). A refusal (4xx) is thrown and the
 * write leaves the queue (the screen puts the old state back and says so).
 */
export function writeThroughOutbox<R extends Exclude<QueuedRoute, "POST /api/message">>(
  route: R,
  json: Record<string, unknown>,
  opts: { offlineOnly?: boolean } = {},
): Promise<ApiAnswer<R> | null> {
  const q: Queued = {
    key: newKey(),
    route,
    json,
    tsQueued: Date.now(),
    ...(opts.offlineOnly ? { offlineOnly: true } : {}),
  };
  return queueAndSend(q) as Promise<ApiAnswer<R> | null>;
}

async function queueAndSend(q: Queued): Promise<unknown> {
  write([...read(), q]);
  startRetrying();
  await flushOutbox();
  // A flush already under way when this one was queued may have stopped before it.
  if (read().some((x) => x.key === q.key && !x.failed) && !delivered.has(q.key)) await flushOutbox();
  if (delivered.has(q.key)) {
    const answer = delivered.get(q.key);
    delivered.delete(q.key);
    return answer;
  }
  const left = read().find((x) => x.key === q.key);
  if (left?.failed) {
    // A refusal that can pass (KEPT_REFUSALS) stays as a failed bubble with its reason and Send
    // again: shown there once, so the sender's box is not handed the text and the reason as well.
    if (left.code && KEPT_REFUSALS.has(left.code)) return null;
    update(q.key, () => null);
    throw new Error(left.failed);
  }
  return null;
}

/** Sends a failed message again. */
export function retryQueued(key: string): Promise<void> {
  update(key, (q) => ({ ...q, failed: undefined }));
  return flushOutbox();
}

/** Drops a waiting or failed message (the member's choice). */
export function dropQueued(key: string): void {
  update(key, () => null);
}

function useAll(): Queued[] {
  return useSyncExternalStore(
    (w) => {
      watchers.add(w);
      return () => watchers.delete(w);
    },
    read,
    () => EMPTY,
  );
}

/** A queued private message. */
export type QueuedMessage = Queued & { message: NewMessage };

/** The messages waiting for the conversation between `me` and `other` (a re-render at each change). */
export function useQueued(me: string, other: string): QueuedMessage[] {
  return useAll().filter((q): q is QueuedMessage =>
    q.message?.senderProfileId === me && q.message.recipientProfileId === other
  );
}

/**
 * The latest waiting (or failed) write of `route` whose body has every field of `match` (a like
 * of one profile, a note about one profile), or undefined: the screen shows it as pending.
 */
export function useQueuedWrite(route: QueuedRoute, match: Record<string, string>): Queued | undefined {
  return useAll().findLast((q) => q.route === route && Object.entries(match).every(([k, v]) => q.json?.[k] === v));
}

/** Asks the service worker to tell an open page when the connection is back (Background Sync), where there is one. */
function askForBackgroundSync() {
  if (typeof navigator === "undefined" || !("serviceWorker" in navigator)) return;
  void navigator.serviceWorker.getRegistration("/").then((reg) =>
    (reg as (ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }) | undefined)?.sync
      ?.register(WORKER_MESSAGES.flushOutbox)
  ).catch(() => {/* no Background Sync here: the online event and the next page load send it */});
}

/** Calls `f` with each message the queue delivered; returns the unsubscribe. */
export function whenDelivered(f: (m: Message) => void): () => void {
  onDelivered.add(f);
  return () => onDelivered.delete(f);
}

/** Where this tab keeps the writes it delivered lately (sessionStorage: the tab's, cleared at logout). */
export const LANDED_STORAGE_KEY = "app-outbox-landed";
/** How long a delivered write is kept for the pages loaded after it. */
export const LANDED_KEEP_MS = 60_000;

/** A write this tab delivered, its answer, and when (Date.now()). */
interface Landed {
  q: Queued;
  answer: unknown;
  at: number;
}

function landed(): Landed[] {
  return storedList<Landed>(sessionStorage, LANDED_STORAGE_KEY);
}

/**
 * Keeps a delivered write a minute for the next page of this tab. A page left (a reload, a link)
 * just after a write was sent stays open until the next page's answer arrives: the write's answer
 * may come in that time, after the next page was rendered without it, and its queue entry then
 * goes with the old page. The next page applies what landed after its navigation began.
 */
function noteLanded(q: Queued, answer: unknown) {
  if (typeof sessionStorage === "undefined") return;
  const now = Date.now();
  const kept = landed().filter((l) => l.at > now - LANDED_KEEP_MS);
  try {
    keepLocally(LANDED_STORAGE_KEY, JSON.stringify([...kept, { q, answer, at: now }]), { tab: true });
  } catch { /* storage full or refused: the page shows what it was rendered with */ }
}

/** The writes of `route` this tab delivered after this page's navigation began (its time origin). */
function landedSinceThisPage(route: QueuedRoute): Landed[] {
  if (typeof sessionStorage === "undefined" || typeof performance === "undefined") return [];
  const since = performance.timeOrigin;
  return landed().filter((l) => l.q.route === route && l.at >= since);
}

/**
 * Calls `f` once every island of the page has hydrated (each marks itself `data-hydrated`): data
 * changed before would make an island's first render differ from the server's HTML.
 */
function afterIslandsHydrated(f: () => void) {
  const waiting = () => document.querySelector("[data-island]:not([data-hydrated])") !== null;
  if (!waiting()) return f();
  const seen = new MutationObserver(() => {
    if (waiting()) return;
    seen.disconnect();
    f();
  });
  seen.observe(document.documentElement, { subtree: true, childList: true, attributeFilter: ["data-hydrated"] });
}

/**
 * Calls `f` with each write of `route` the queue delivered and the server's answer (also those
 * sent at once), first with those this tab delivered after this page's navigation began (a page
 * rendered before they landed); returns the unsubscribe. A screen that showed a write as pending
 * shows its result.
 */
export function whenWriteDelivered<R extends Exclude<QueuedRoute, "POST /api/message">>(
  route: R,
  f: (answer: ApiAnswer<R>, q: Queued) => void,
): () => void {
  const g = (q: Queued, answer: unknown) => {
    if (q.route === route) f(answer as ApiAnswer<R>, q);
  };
  const landedHere = landedSinceThisPage(route);
  if (landedHere.length) afterIslandsHydrated(() => landedHere.forEach((l) => g(l.q, l.answer)));
  onWriteDelivered.add(g);
  return () => onWriteDelivered.delete(g);
}

let retrying = false;

/** Sends what waits now and whenever the connection returns, and every RETRY_MS while anything waits. */
function startRetrying() {
  if (retrying || typeof window === "undefined") return;
  retrying = true;
  addEventListener("online", () => void flushOutbox());
  // Background Sync: the worker says the connection is back (islands/sw/worker.ts).
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.addEventListener("message", (e) => {
      if ((e.data as { type?: string } | null)?.type === WORKER_MESSAGES.flushOutbox) void flushOutbox();
    });
  }
  addEventListener("storage", (e) => {
    // Another tab changed the queue: read it again.
    if (e.key === OUTBOX_STORAGE_KEY || e.key === null) {
      cache = undefined;
      watchers.forEach((w) => w());
    }
  });
  setInterval(() => {
    if (read().some((q) => !q.failed)) void flushOutbox();
  }, RETRY_MS);
}

if (typeof window !== "undefined" && typeof localStorage !== "undefined") {
  startRetrying();
  if (read().length) void flushOutbox();
}
