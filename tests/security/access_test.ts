/**
 * The access matrix: every API route the app registers (read from the Hono app itself) must have
 * a row here. A route that takes an object id (a profile, picture, note, message, notification,
 * push device, session, report, suggestion...) is called on the owner's object, as made by
 * tests/security/calls.ts, as anonymous, as the owner, as another member, as a member the owner
 * blocked, and as an admin, and must answer the status of its row; a refused call stores nothing.
 * A new route without a row fails the test: classify it.
 *
 * ACCESS_PRINT=1 prints the statuses the app gives, as rows to paste (then check every cell by hand).
 */

import assert from "node:assert/strict";
import { ORIGIN, testApp } from "../api.ts";
import { buildWorld, type Role, type World } from "./world.ts";
import { CALLS } from "./calls.ts";
import { bringUpToDate, countWrites, kvChanges, kvSnapshot } from "./kit.ts";
import { resumeSending } from "../../kv/moderation.ts";
import { endStay } from "../../kv/games/dungeon.ts";

/** The roles in the order they call: the owner last, so a call that destroys its object comes last. */
const ORDER: readonly Role[] = ["anonymous", "other", "blocked", "admin", "owner"];

/** A route that takes no object id: there is no owner to tell apart from others. */
const NONE = "no object";

interface Row {
  /** What the id names. */
  object: string;
  /** The status for each role. */
  expect: Record<Role, number>;
  /** The call destroys or uses up its object: each role gets a fresh one. */
  fresh?: boolean;
  /** Puts the world back after the owner's call (an unblock is blocked again). */
  restore?: (t: Awaited<ReturnType<typeof testApp>>, w: World) => Promise<void>;
}

/** anonymous / owner / other / blocked / admin */
const row = (
  object: string,
  a: number,
  o: number,
  x: number,
  b: number,
  ad: number,
  extra: Partial<Row> = {},
): Row => ({
  object,
  expect: { anonymous: a, owner: o, other: x, blocked: b, admin: ad },
  ...extra,
});

/**
 * The table. Reading a row: anonymous, owner, other member, blocked member, admin. 401 no session;
 * 403 not yours; 404 does not exist for you (a private thing, or its owner blocked you: the same
 * answer as none, so nothing is revealed); 400/409 refused on its merits after access was granted.
 */
const MATRIX: Record<string, Row | typeof NONE> = {
  "GET /api/ping": NONE,
  "GET /api/version": NONE,
  "GET /api/health": NONE,
  "GET /api/ready": NONE,
  "GET /api/openapi.json": NONE,
  "PUT /api/settings/language": NONE,
  "PUT /api/settings/quiet-hours": NONE,
  "PUT /api/settings/theme": NONE,
  "POST /api/account/export": NONE,
  "POST /api/account/export/download": NONE,
  "DELETE /api/account": NONE,
  "GET /api/docs": NONE,
  "POST /api/auth": NONE,
  "POST /api/auth/logout": NONE,
  "POST /api/auth/register": NONE,
  "GET /api/passkeys": NONE,
  "POST /api/passkeys/register/options": NONE,
  "POST /api/passkeys/register": NONE,
  "DELETE /api/passkeys/:id": row("passkey", 401, 200, 404, 404, 404, { fresh: true }),
  "POST /api/passkeys/login/options": NONE,
  "POST /api/passkeys/login": NONE,
  "GET /api/safety": NONE,
  "GET /api/presence": NONE,
  "PUT /api/presence": NONE,
  "POST /api/presence/looking": NONE,
  "POST /api/typing/:profileId": row("the member told of my typing", 401, 404, 204, 404, 204),
  "PUT /api/safety": NONE,
  "GET /api/settings": NONE,
  "PUT /api/settings": NONE,
  "GET /api/sessions": NONE,
  "DELETE /api/sessions/:id": row("session", 401, 200, 404, 404, 404, { fresh: true }),
  "POST /api/sessions/end-others": NONE,
  "POST /api/contactus-messages": NONE,
  "GET /api/admin/dashboard/userRoleCounts": NONE,
  "POST /api/admin/testUsersCreate/:count": NONE,
  "PUT /api/profile-position/:profileId": row("profile", 401, 200, 403, 403, 403),
  "GET /api/profile-position/:profileId": row("profile", 401, 200, 403, 403, 403),
  "GET /api/profile-briefs/nearest": NONE,
  "GET /api/profile-briefs/by-bounds": NONE,
  "GET /api/profile-briefs/map": NONE,
  "GET /api/profile-briefs/by-sector/:sector": NONE,
  "GET /api/profile-positions/aggregates": NONE,
  "GET /api/profiles/mine": NONE,
  "GET /api/profile/:id": row("profile", 401, 200, 200, 404, 200),
  "PUT /api/profile": row("profile", 401, 200, 403, 403, 403),
  "POST /api/profile-pic": row("profile", 401, 201, 403, 403, 403, { fresh: true }),
  "DELETE /api/profile-pic/:id": row("picture", 401, 200, 403, 404, 403, { fresh: true }),
  "DELETE /api/profile-pic-grants/:profileId": row("the caller's own grants to a profile", 401, 200, 200, 200, 200),
  "GET /api/profile-pic/nsfw/:id": row("picture", 401, 200, 200, 404, 200),
  "GET /api/profile-pic/:id": row("picture", 401, 200, 200, 404, 200),
  "GET /api/profile-pic/:id/source": row("picture", 401, 200, 403, 404, 403),
  "PUT /api/profile-pic/:id": row("picture", 401, 200, 403, 404, 403),
  "PUT /api/profile-pic/:id/crop": row("picture", 401, 200, 403, 404, 403),
  "GET /api/profile/pic/:id": row("picture", 401, 200, 200, 404, 200),
  "GET /api/blocks": NONE,
  "DELETE /api/blocks/:profileId": row("block", 401, 200, 404, 404, 404, { restore: reblock }),
  "GET /api/profile-likes/by-liker/:profileId": row("profile", 401, 200, 403, 403, 403),
  "GET /api/profile-likes/by-liked/:profileId": row("profile", 401, 200, 403, 403, 403),
  "GET /api/profile-like": row("like", 401, 200, 403, 403, 403),
  "PUT /api/profile-like": row("like", 401, 200, 403, 403, 403),
  "PUT /api/profile-pic-like": row("picture like", 401, 200, 403, 403, 403),
  "GET /api/profile-pic-likes/by-liker-profileid/:profileId": row("profile", 401, 200, 403, 403, 403),
  "GET /api/profile-pic-likes/by-liked-profileid/:profileId": row("profile", 401, 200, 403, 403, 403),
  "GET /api/profile-note": row("note", 401, 200, 403, 403, 403),
  "PUT /api/profile-note": row("note", 401, 200, 403, 403, 403),
  "GET /api/profile-notes": row("note", 401, 200, 403, 403, 403),
  "POST /api/profile-report": row("profile", 401, 201, 403, 403, 403),
  "GET /api/notifications/:profileId": row("profile", 401, 200, 403, 403, 403),
  "DELETE /api/notification/:id": row("notification", 401, 200, 404, 404, 404, { fresh: true }),
  "POST /api/push-subscriptions": NONE,
  "DELETE /api/push-subscriptions/:id": row("push subscription", 401, 200, 404, 404, 404, { fresh: true }),
  "GET /api/events": NONE,
  "DELETE /api/message/:id": row("message", 401, 200, 403, 404, 404, { fresh: true }),
  // The world's message is not view-once: nothing to open for anyone (messages_viewonce_test.ts opens one).
  "POST /api/message/:id/open": row("a view-once message to its recipient", 401, 404, 404, 404, 404),
  "DELETE /api/messages/with/:profileId": row("the caller's own conversation", 401, 200, 200, 200, 200),
  "GET /api/messages/most-recent-with/:profileId": row("profile", 401, 200, 403, 403, 403),
  "GET /api/messages/between/:a/:b": row("conversation", 401, 200, 200, 403, 403),
  "PUT /api/messages/read/:other": row("the caller's own conversation", 401, 200, 200, 200, 200),
  "POST /api/message": row("profile", 401, 201, 403, 403, 403),
  "GET /api/messages/by-sector/:sector": NONE,
  "GET /api/games/credits": NONE,
  "GET /api/games/volunteer": NONE,
  "GET /api/games/gptbuster/next": NONE,
  "PUT /api/games/gptbuster/:profileId": row("profile", 401, 400, 200, 404, 200),
  "GET /api/games/ratinggame/deck": NONE,
  "PUT /api/games/ratinggame": row("picture", 401, 400, 200, 404, 200),
  "GET /api/games/arbitration/next": NONE,
  "GET /api/games/hotornot": NONE,
  "POST /api/games/hotornot/tests": NONE,
  // A test's result is its owner's alone: anyone else, admins too, is answered as if it did not exist.
  "GET /api/games/hotornot/tests/:testId": row("Hot or Not test", 401, 200, 404, 404, 404),
  "DELETE /api/games/hotornot/tests/:testId": row("Hot or Not test", 401, 200, 404, 404, 404, { fresh: true }),
  "POST /api/games/hotornot/tests/:testId/best-first": row("Hot or Not test", 401, 200, 404, 404, 404),
  "GET /api/games/hotornot/next": NONE,
  // Only to the member it is dealt to (the other member here); the owner's own test is never dealt to them.
  "GET /api/games/hotornot/pair/:testId/:side": row("Hot or Not test", 401, 404, 200, 404, 404),
  // Never on one's own test; the other member's vote is answered again as it was (an outbox retry); the
  // test has ended for anyone else; a blocked member sees no test.
  "PUT /api/games/hotornot/vote": row("Hot or Not test", 401, 403, 200, 404, 409),
  "PUT /api/games/hotornot/keep-best": NONE,
  "POST /api/games/hotornot/keep-best/undo": NONE,
  "GET /api/admin/games/hotornot": NONE,
  "PUT /api/games/arbitration/:reportId": row("report", 401, 409, 409, 409, 200),
  "GET /api/games/photocrop/next": NONE,
  "PUT /api/games/photocrop/:picId": row("picture", 401, 400, 409, 404, 201),
  "GET /api/games/photocrop/suggestions": NONE,
  "PUT /api/games/photocrop/suggestions/:id": row("crop suggestion", 401, 200, 404, 404, 404, { fresh: true }),
  "GET /api/games/identify": NONE,
  "POST /api/games/identify/challenge": NONE,
  "POST /api/games/identify/selfie": NONE,
  "DELETE /api/games/identify/attempt": NONE,
  "GET /api/games/identify/next": NONE,
  // A selfie is seen only by a judge it is dealt to and by admins; never by its own member.
  "GET /api/games/identify/attempts/:attemptId/selfie": row("selfie", 401, 404, 404, 404, 200),
  "GET /api/games/identify/attempts/:attemptId/pictures/:n": row("selfie", 401, 404, 404, 404, 200),
  "PUT /api/games/identify/attempts/:attemptId": row("selfie", 401, 404, 404, 404, 404),
  "GET /api/settings/verified-only": NONE,
  "PUT /api/settings/verified-only": NONE,
  "GET /api/admin/games/identify": NONE,
  "PUT /api/admin/games/identify/:attemptId": row("selfie", 401, 403, 403, 403, 200, { fresh: true }),
  "GET /api/games/healthreport/contacts": NONE,
  "POST /api/games/healthreport": NONE,
  "GET /api/games/cooties": NONE,
  "POST /api/games/cooties/:id/abuse": row("health notice", 401, 200, 404, 404, 404, { fresh: true }),
  "GET /api/admin/games/healthreport": NONE,
  "GET /api/admin/games/gptbuster/flagged": NONE,
  "GET /api/admin/games/gptbuster/:profileId": row("profile", 401, 403, 403, 403, 200),
  "GET /api/admin/reports": NONE,
  "PUT /api/admin/reports/:reportId": row("report", 401, 403, 403, 403, 200, { fresh: true }),
  "GET /api/admin/reports/:reportId": row("report", 401, 403, 403, 403, 200),
  "GET /api/admin/moderation/queue": NONE,
  "GET /api/admin/audit": NONE,
  "GET /api/admin/members": NONE,
  "GET /api/admin/members/:profileId": row("profile", 401, 403, 403, 403, 200),
  "POST /api/admin/members/:profileId/actions": row("profile", 401, 403, 403, 403, 201),
  "DELETE /api/admin/members/:profileId/actions/:actionId": row("moderation action", 401, 403, 403, 403, 200, {
    fresh: true,
  }),
  "DELETE /api/admin/members/:profileId/review": row("profile", 401, 403, 403, 403, 200),
  "DELETE /api/admin/members/:profileId/sending-pause": row("paused sender", 401, 403, 403, 403, 200, {
    fresh: true,
    // The owner's refused call leaves the pause its call made: lift it, so the world can send again.
    restore: (_t, w) => resumeSending({ accountId: "test", name: "Test" }, w.owner.profileId).then(() => {}),
  }),
  "POST /api/admin/members/:profileId/notes": row("profile", 401, 403, 403, 403, 201),
  "GET /api/games/dungeon": NONE,
  "POST /api/games/dungeon/quiz": NONE,
  "POST /api/games/dungeon/appeal": NONE,
  "GET /api/admin/dungeon": NONE,
  // The owner's stay with its appeal waiting: only an admin answers it.
  "PUT /api/admin/dungeon/appeals/:stayId": row("dungeon stay", 401, 403, 403, 403, 200, { fresh: true }),
  "DELETE /api/admin/dungeon/stays/:profileId": row("dungeon stay", 401, 403, 403, 403, 200, {
    fresh: true,
    // The owner's refused call leaves the stay its call made: end it, so the world can like and write again.
    restore: (_t, w) => endStay({ accountId: "test", name: "Test" }, w.owner.profileId).then(() => {}),
  }),
  "POST /api/secret/devices": NONE,
  "GET /api/secret/chats": NONE,
  // A device is its member's, of their current session: anyone else's call with it is refused.
  "POST /api/secret/devices/:deviceId/key-packages": row("secret-chat device", 401, 200, 403, 403, 403),
  "POST /api/secret/key-packages/claim": row("secret-chat device", 401, 200, 403, 403, 403),
  "POST /api/secret/chats": row("secret-chat device", 401, 201, 403, 403, 403),
  // The secret chat is the owner's with the other member: both read it; anyone else, admins too, is
  // answered as if it did not exist. The other member may not use the owner's device in it.
  "GET /api/secret/chats/:chatId/messages": row("secret chat", 401, 200, 200, 404, 404),
  "POST /api/secret/chats/:chatId/messages": row("secret chat", 401, 201, 403, 404, 404),
  // The message read and reported is the other member's to the owner: its sender neither reads nor reports it.
  "POST /api/secret/chats/:chatId/read": row("secret chat", 401, 200, 404, 404, 404),
  "POST /api/secret/chats/:chatId/messages/:messageId/report": row("secret message", 401, 201, 400, 404, 404),
  "POST /api/secret/chats/:chatId/join": row("secret chat", 401, 200, 403, 404, 404),
  "POST /api/secret/chats/:chatId/pending/:deviceId/key-package": row("secret chat", 401, 200, 404, 404, 404),
  "POST /api/secret/chats/:chatId/approve": row("secret chat", 401, 201, 403, 404, 404, { fresh: true }),
  // Removing logged-out devices from the chat's group: the owner's device may (refused here on its
  // merits: the device named is live), the other member may not with the owner's device.
  "POST /api/secret/chats/:chatId/evict": row("secret chat", 401, 409, 403, 404, 404),
  // A picture in the chat: the other member may not upload with the owner's device; both members
  // read the chat's pictures; anyone else, admins too, finds none.
  "POST /api/secret/pictures": row("secret chat", 401, 201, 403, 404, 404),
  // Only its sender deletes a picture from the server; the other member of the chat is refused.
  "DELETE /api/secret/chats/:chatId/pictures/:pictureId": row("secret picture", 401, 200, 403, 404, 404, {
    fresh: true,
  }),
  "GET /api/secret/chats/:chatId/pictures/:pictureId": row("secret picture", 401, 200, 200, 404, 404, { fresh: true }),
};

const PRINT = Deno.env.get("ACCESS_PRINT") === "1";

/** One call; an event stream is answered by its headers (it stays open), and is closed at once. */
async function send(
  t: Awaited<ReturnType<typeof testApp>>,
  method: string,
  path: string,
  cookie: string | undefined,
  spec: { json?: unknown; form?: Record<string, string | Blob>; bytes?: Uint8Array },
): Promise<{ status: number; text: string }> {
  // The member's own page makes the call: its browser names the page's origin on a write.
  const headers: Record<string, string> = cookie ? { cookie, ...(method === "GET" ? {} : { origin: ORIGIN }) } : {};
  let body: BodyInit | undefined;
  if (spec.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(spec.json);
  } else if (spec.form) {
    const fd = new FormData();
    for (const [k, v] of Object.entries(spec.form)) fd.set(k, v);
    body = fd;
  } else if (spec.bytes) {
    headers["content-type"] = "application/octet-stream";
    body = spec.bytes as Uint8Array<ArrayBuffer>;
  }
  const res = await t.app.request(ORIGIN + path, { method, headers, body });
  if (res.headers.get("content-type")?.startsWith("text/event-stream")) {
    await res.body?.cancel();
    return { status: res.status, text: "(event stream)" };
  }
  return { status: res.status, text: await res.text() };
}

/** The owner blocks the blocked member again (after "DELETE /api/blocks/:profileId" lifted it). */
async function reblock(t: Awaited<ReturnType<typeof testApp>>, w: World) {
  const r = await t.call("PUT", "/api/profile-like", {
    cookie: w.owner.cookie,
    json: {
      likerProfileId: w.owner.profileId,
      likedProfileId: w.blocked.profileId,
      likeType: "DISLIKE",
      blocked: true,
    },
  });
  assert.equal(r.status, 200, r.text);
}

Deno.test("security - access matrix: every API route has a row, and each object route answers each role as its row says", async () => {
  const t = await testApp();
  try {
    const w = await buildWorld(t);
    const writes = countWrites(t.kv());
    const routes = [
      ...new Set(
        t.app.routes.filter((r) => r.method !== "ALL" && r.path.startsWith("/api/")).map((r) =>
          `${r.method} ${r.path}`
        ),
      ),
    ];
    const unclassified = routes.filter((r) => !(r in MATRIX));
    assert.deepEqual(
      unclassified,
      [],
      "routes without a row in MATRIX: classify each (an object route gets its statuses)",
    );
    assert.deepEqual(
      Object.keys(MATRIX).filter((r) => !routes.includes(r)),
      [],
      "rows for routes the app no longer has",
    );

    const wrong: string[] = [];
    const printed: string[] = [];
    let cells = 0;
    for (const route of routes) {
      const r = MATRIX[route];
      if (r === NONE && !PRINT) continue;
      const call = CALLS[route];
      assert.ok(call, `${route}: an object route needs its call in tests/security/calls.ts`);
      const [method] = route.split(" ");
      const got = {} as Record<Role, number>;
      // The store as the route's calls find it, listed once; then brought up to date from the keys each write
      // names (tests/security/kit.ts), and listed whole again at the route's end to show the count missed nothing.
      const snapshot = r === NONE ? null : await kvSnapshot();
      writes.touched();
      for (const role of ORDER) {
        const spec = await call(w, r !== NONE && !!r.fresh);
        const q = spec.query ? `?${new URLSearchParams(spec.query)}` : "";
        // What making the call's object wrote is not the call's.
        if (snapshot) await bringUpToDate(snapshot, writes.touched());
        const wrote = writes.count;
        const res = await send(t, method, spec.path + q, w.cookieOf(role), spec);
        got[role] = res.status;
        cells++;
        if (r !== NONE && snapshot) {
          if (res.status !== r.expect[role]) {
            wrong.push(
              `${route} as ${role}: ${res.status}, the table says ${r.expect[role]} (${res.text.slice(0, 120)})`,
            );
          }
          const changes = writes.count !== wrote ? await bringUpToDate(snapshot, writes.touched()) : [];
          if (res.status >= 400 && changes.length) {
            wrong.push(`${route} as ${role}: refused ${res.status} but stored ${changes.join("; ")}`);
          }
        }
      }
      if (snapshot) {
        const missed = kvChanges(snapshot, await kvSnapshot());
        if (missed.length) wrong.push(`${route}: a write the count missed: ${missed.slice(0, 5).join("; ")}`);
      }
      if (r !== NONE && r.restore) await r.restore(t, w);
      await w.renewSessions();
      if (PRINT) {
        printed.push(
          `  "${route}": row("${
            r === NONE ? "?" : r.object
          }", ${got.anonymous}, ${got.owner}, ${got.other}, ${got.blocked}, ${got.admin}),`,
        );
      }
    }
    if (PRINT) console.log(printed.join("\n"));
    console.log(
      `${cells} calls: ${routes.length} routes, ${
        Object.values(MATRIX).filter((r) => r !== NONE).length
      } object routes × 5 roles`,
    );
    assert.deepEqual(wrong, [], `\n${wrong.join("\n")}`);
  } finally {
    t.close();
  }
});
