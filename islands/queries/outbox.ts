/**
 * Messages kept on the device until the server has them. Every send goes through here: it is
 * written to the outbox (local storage, cleared at logout with the rest of the member's data),
 * then posted with its idempotency key, so a retry after a lost answer or a lost connection is
 * stored once (kv/messages.ts). A send that finds no connection (or a server in trouble) stays
 * queued and is shown as pending; the queue is sent, in order, when the connection returns, when
 * a page loads and every `RETRY_MS`. A queued message the server refuses (4xx) is kept as failed,
 * shown with a retry, never dropped without the member's say.
 */

import { useSyncExternalStore } from "react";
import { ApiFailure, call } from "./api.ts";
import type { ApiAnswer } from "../../domain/contract.ts";
import type { NewMessage } from "../../domain/shapes/messages.ts";

type Message = ApiAnswer<"POST /api/message">;

/** One message waiting to be sent. */
export interface Queued {
  /** Its idempotency key: one send however often it is posted. */
  key: string;
  message: NewMessage;
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
/** What the server answered for messages sent from the queue, by key (for the send that waits). */
const delivered = new Map<string, Message>();
/** Called with each message the server took (the screens refresh their lists). */
const onDelivered = new Set<(m: Message) => void>();

function read(): Queued[] {
  if (cache) return cache;
  try {
    const raw = JSON.parse(localStorage.getItem(OUTBOX_STORAGE_KEY) ?? "[]");
    cache = Array.isArray(raw) ? raw as Queued[] : [];
  } catch {
    cache = [];
  }
  return cache;
}

function write(list: Queued[]) {
  cache = list;
  if (list.length) localStorage.setItem(OUTBOX_STORAGE_KEY, JSON.stringify(list));
  else localStorage.removeItem(OUTBOX_STORAGE_KEY);
  watchers.forEach((w) => w());
}

const update = (key: string, change: (q: Queued) => Queued | null) =>
  write(read().flatMap((q) => q.key !== key ? [q] : (change(q) ?? [])));

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
      const m = await call("POST /api/message", {}, {
        json: { ...q.message, tsCreated: q.tsQueued },
        headers: { "idempotency-key": q.key },
      });
      delivered.set(q.key, m);
      // The screens show the stored message before the pending one goes: no gap between the two.
      onDelivered.forEach((f) => f(m));
      update(q.key, () => null);
    } catch (e) {
      if (isPassing(e)) break;
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
 * waits for a connection (shown as pending). A refusal (4xx) is thrown and the message leaves the
 * queue: the composer still holds its text and shows why.
 */
export async function sendThroughOutbox(message: NewMessage): Promise<Message | null> {
  const q: Queued = { key: newKey(), message, tsQueued: Date.now() };
  write([...read(), q]);
  startRetrying();
  await flushOutbox();
  // A flush already under way when this one was queued may have stopped before it.
  if (read().some((x) => x.key === q.key && !x.failed) && !delivered.has(q.key)) await flushOutbox();
  const m = delivered.get(q.key);
  delivered.delete(q.key);
  if (m) return m;
  const left = read().find((x) => x.key === q.key);
  if (left?.failed) {
    // Refused until the sender is verified: it stays in the outbox, with Send again.
    if (left.code !== "recipient_verified_only") update(q.key, () => null);
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

/** The messages waiting for the conversation between `me` and `other` (a re-render at each change). */
export function useQueued(me: string, other: string): Queued[] {
  const all = useSyncExternalStore(
    (w) => {
      watchers.add(w);
      return () => watchers.delete(w);
    },
    read,
    () => EMPTY,
  );
  return all.filter((q) => q.message.senderProfileId === me && q.message.recipientProfileId === other);
}

/** Calls `f` with each message the queue delivered; returns the unsubscribe. */
export function whenDelivered(f: (m: Message) => void): () => void {
  onDelivered.add(f);
  return () => onDelivered.delete(f);
}

let retrying = false;

/** Sends what waits now and whenever the connection returns, and every RETRY_MS while anything waits. */
function startRetrying() {
  if (retrying || typeof window === "undefined") return;
  retrying = true;
  addEventListener("online", () => void flushOutbox());
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
