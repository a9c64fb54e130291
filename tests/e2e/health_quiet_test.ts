/**
 * The health report's page writes nothing that names its sender (docs/health-notices.md, "What is
 * written, and when"), end to end: a member with a contact, whose service worker is registered,
 * opens /games/healthreport from another page of the app when their session's last-seen time is
 * due, stays on it as a person would (its islands hydrated, what it opens open), and sends. Every
 * store write from the click that opens the page to the send's answer is recorded (the store's
 * set, delete, atomic and enqueue, and the store listed before and after); none may name the
 * sender. The same walk to a normal page writes the last-seen time: the check sees such a write.
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { type Harness, logInAs, startHarness } from "./harness.ts";
import type { Account } from "../../kv/accounts.ts";
import { agedAccount, exchangeBetween } from "../fixtures/health.ts";
import { kv } from "../../kv/db.ts";
import { keys } from "../../kv/keys.ts";
import { sha256Hex } from "../../kv/ids.ts";
import { resetClock, shiftClock } from "../../kv/clock.ts";
import type { Session } from "../../kv/sessions.ts";

/** Past the session's last-seen interval (kv/sessions.ts, 5 minutes) and presence's (30 s). */
const DUE_MS = 6 * 60_000;

/** One write to the store: what, where, and the value written (none for a delete). */
interface Write {
  op: string;
  key: Deno.KvKey;
  value?: unknown;
}

/** A write's key and value as text, to look for the sender's names in (ids, hashes). */
function text(w: Write): string {
  return JSON.stringify(
    [w.key, w.value ?? null],
    (_, v) =>
      typeof v === "bigint"
        ? String(v)
        : v instanceof Uint8Array
        ? [...v].map((b) => b.toString(16).padStart(2, "0")).join("")
        : v instanceof Deno.KvU64
        ? String(v.value)
        : v,
  );
}

/** Every row of the store, by its key's text: its versionstamp. */
async function rows(): Promise<Map<string, { key: Deno.KvKey; value: unknown; versionstamp: string }>> {
  const out = new Map<string, { key: Deno.KvKey; value: unknown; versionstamp: string }>();
  for await (const e of kv().list({ prefix: [] })) out.set(text({ op: "", key: e.key }), e);
  return out;
}

/**
 * Records every write made through the app's store handle from now on (set, delete, the atomic's
 * set, delete, sum, min, max and enqueue, a queued message), as the security kit counts them
 * (tests/security/kit.ts), and, at `stop()`, every row that appeared, changed or went between the
 * store's listings before and after, so that a write by any other path is seen too.
 */
async function recordWrites(): Promise<{ stop(): Promise<Write[]> }> {
  // deno-lint-ignore no-explicit-any
  const h = kv() as any;
  const before = await rows();
  const writes: Write[] = [];
  const set = h.set, del = h.delete, enqueue = h.enqueue, atomic = h.atomic;
  h.set = (key: Deno.KvKey, value: unknown, ...rest: unknown[]) => {
    writes.push({ op: "set", key, value });
    return set.call(h, key, value, ...rest);
  };
  h.delete = (key: Deno.KvKey) => {
    writes.push({ op: "delete", key });
    return del.call(h, key);
  };
  h.enqueue = (value: unknown, ...rest: unknown[]) => {
    writes.push({ op: "enqueue", key: [], value });
    return enqueue.call(h, value, ...rest);
  };
  h.atomic = () => {
    const op = atomic.call(h);
    const pending: Write[] = [];
    for (const m of ["set", "delete", "sum", "min", "max"]) {
      const orig = op[m].bind(op);
      op[m] = (key: Deno.KvKey, ...rest: unknown[]) => {
        pending.push({ op: m, key, value: rest[0] });
        return orig(key, ...rest);
      };
    }
    const origEnqueue = op.enqueue.bind(op);
    op.enqueue = (value: unknown, ...rest: unknown[]) => {
      pending.push({ op: "enqueue", key: [], value });
      return origEnqueue(value, ...rest);
    };
    const mutate = op.mutate.bind(op);
    op.mutate = (...ms: Deno.KvMutation[]) => {
      for (const m of ms) pending.push({ op: m.type, key: m.key, value: "value" in m ? m.value : undefined });
      return mutate(...ms);
    };
    const commit = op.commit.bind(op);
    op.commit = async () => {
      const res = await commit();
      if (res.ok) writes.push(...pending);
      return res;
    };
    return op;
  };
  return {
    async stop() {
      Object.assign(h, { set, delete: del, enqueue, atomic });
      const after = await rows();
      for (const [k, e] of after) {
        if (before.get(k)?.versionstamp !== e.versionstamp) {
          writes.push({ op: "row written", key: e.key, value: e.value });
        }
      }
      for (const [k, e] of before) if (!after.has(k)) writes.push({ op: "row gone", key: e.key });
      return writes;
    },
  };
}

/** The writes among `writes` that name the member: their ids, their session's id, token or its hash, their email. */
function naming(writes: readonly Write[], names: readonly string[]): Write[] {
  return writes.filter((w) => {
    const t = text(w);
    return names.some((n) => t.includes(n));
  });
}

/**
 * Waits as a person would on a page until it has done what it does on opening: its islands
 * hydrated (the harness's navigation waits), the network quiet (their first calls answered), and
 * its live socket, if it opens one, open and answered (the feed's lease and presence written).
 * The control walk shows these signs come after the writes a page makes.
 */
async function stayOn(page: Page, sockets: Promise<unknown>[]): Promise<void> {
  await page.waitForLoadState("networkidle");
  await Promise.all(sockets);
}

/** The sockets a page opens from now on, each as its first message received. */
function socketsOf(page: Page): Promise<unknown>[] {
  const opened: Promise<unknown>[] = [];
  page.on("websocket", (ws) => opened.push(ws.waitForEvent("framereceived", { timeout: 30_000 }).catch(() => {})));
  return opened;
}

/**
 * Sam's walk on a device: logged in (`workers`: with the app's worker registered and in control, or
 * none, as in a browser that keeps none), the control page, then the report.
 */
async function walk(h: Harness, sam: Account, workers: "allow" | "block"): Promise<void> {
  const { context, page } = await h.newPage("phone", { serviceWorkers: workers });
  await logInAs(context, h.origin, sam.id);
  await page.goto("/notifications");
  if (workers === "allow") {
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await page.waitForFunction(() => !!navigator.serviceWorker.controller, undefined, { timeout: 30_000 });
  }
  const token = (await context.cookies()).find((c) => c.name === "sid" || c.name === "__Host-sid")!.value;
  const tokenHash = await sha256Hex(token);
  const session = (await kv().get<Session>(keys.session(tokenHash))).value!;
  const names = [sam.id, sam.defaultProfileId, session.id, token, tokenHash, sam.email];

  // --- The control: the same walk to a normal page (You got Cooties) writes the last-seen time once due.
  await page.goto("/games");
  shiftClock(DUE_MS);
  let sockets = socketsOf(page);
  let recording = await recordWrites();
  await page.getByRole("link", { name: "You got Cooties" }).first().click();
  await page.waitForURL(h.origin + "/games/cooties");
  await stayOn(page, sockets);
  const normal = naming(await recording.stop(), names);
  // A normal page's tab bar shows the member's unread counts live, and the page names screens to fetch ahead.
  const tabs = await page.locator(".tab-bar").innerText();
  assert.match(tabs, /unread/, "the unread message counted");
  assert.equal(await page.locator('script[type="speculationrules"]').count(), 1);
  assert.ok(
    normal.some((w) => w.key[0] === "sessions" && w.key[1] === tokenHash),
    `a normal page writes the session's last-seen time once due; named the member: ${normal.map(text).join("\n")}`,
  );

  // --- The report: opened from the games page when the last-seen time is due, read, sent.
  await page.goto("/games");
  await stayOn(page, []);
  shiftClock(DUE_MS);
  // The feeds the games page holds open now: when the member leaves it, its lease goes (what the
  // member did before the report; docs/health-notices.md, "Activity around the report").
  const leftBehind = new Set<string>();
  for await (const e of kv().list({ prefix: keys.feedsOfMember(sam.defaultProfileId) })) {
    leftBehind.add(String(e.key.at(-1)));
  }
  sockets = socketsOf(page);
  recording = await recordWrites();
  await page.getByRole("link", { name: /Health Incident Report/ }).first().click();
  await page.waitForURL(h.origin + "/games/healthreport");
  await stayOn(page, sockets);
  // The report's tab bar shows the same counts, as read with the page; it names nothing to fetch
  // ahead (a browser that speculates would load those screens, each writing the last-seen time).
  assert.equal(await page.locator(".tab-bar").innerText(), tabs);
  assert.equal(await page.locator('script[type="speculationrules"]').count(), 0);
  await page.getByLabel("What were you diagnosed with?").selectOption("SYPHILIS");
  await page.getByRole("checkbox", { name: "Alex" }).waitFor();
  await page.getByRole("button", { name: "Send the notices" }).click();
  await page.getByText(/Done\. 1 member will be told/).waitFor();
  const writes = await recording.stop();
  const left = (w: Write) =>
    (w.op === "delete" || w.op === "row gone") && leftBehind.has(String(w.key.at(-1))) &&
    (w.key[0] === "feeds_by_member" || w.key[0] === "feeds_by_address");
  const named = naming(writes, names).filter((w) => !left(w));
  assert.deepEqual(
    named.map((w) => `${w.op} ${text(w)}`),
    [],
    `no write from opening the page to the send's answer names the sender (workers: ${workers})`,
  );
  // The report itself was written (the check saw the store): the recipient's pending notice.
  assert.ok(writes.some((w) => w.key[0] === "health_pending"), "the send's pending notice was recorded");
  await context.close();
}

Deno.test({
  name: "e2e - health report: from opening the page to the send's answer, no write names the sender",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const h = await startHarness();
    try {
      const sam = await agedAccount("Sam", 30);
      const alex = await agedAccount("Alex", 30);
      await exchangeBetween(sam.defaultProfileId, alex.defaultProfileId, ["Great to meet you", "Likewise!"]);
      // With the app's worker (it answers the pages' navigations), and without one (the browser
      // then fetches the screens the speculation rules name ahead).
      await walk(h, sam, "allow");
      await walk(h, sam, "block");
    } finally {
      resetClock();
      await h.close();
    }
  },
});
