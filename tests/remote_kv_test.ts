/**
 * The app on a remote KV, in every `deno task test`: a KV Connect server (scripts/kvConnect.ts)
 * answering 5 ms late, and a few member journeys through the API on it: register, position,
 * nearest, like, and a message delivered live to an open event stream. The full suites run that
 * way with `deno task test-remote` (tests/remoteKv.ts).
 */

import assert from "node:assert/strict";
import { testApp } from "./api.ts";
import { streamText } from "./sse.ts";
import { startKvConnect } from "../scripts/kvConnect.ts";
import { closeKv, kvIsRemote, openKv } from "../kv/db.ts";
import { getShownPosition, reportPosition } from "../kv/positions/mod.ts";
import { newId } from "../kv/ids.ts";
import { keys } from "../kv/keys.ts";

const TOKEN = "remote-journey-token";

Deno.test("remote KV - register, position, nearest, like and a live message, on a KV Connect store 5 ms away", async () => {
  const server = await startKvConnect({ path: ":memory:", token: TOKEN, rttMs: 5 });
  const token = Deno.env.get("DENO_KV_ACCESS_TOKEN");
  Deno.env.set("DENO_KV_ACCESS_TOKEN", TOKEN);
  const t = await testApp({ path: server.urlOf("journeys") });
  try {
    assert.ok(kvIsRemote(), "the app's store is the remote one");
    const a = await t.member(), b = await t.member();

    // Positions, then each finds the other nearest.
    for (const [m, lon] of [[a, -112.074], [b, -112.01]] as const) {
      const put = await t.call("PUT", `/api/profile-position/${m.profileId}`, {
        cookie: m.cookie,
        json: { overrideLat: 33.4484, overrideLon: lon, use: "OVERRIDE", hide: false },
      });
      assert.equal(put.status, 200, put.text);
    }
    const nearest = await t.call("GET", "/api/profile-briefs/nearest", { cookie: a.cookie });
    assert.equal(nearest.status, 200, nearest.text);
    assert.deepEqual(nearest.data.items.map((i: { profileId: string }) => i.profileId), [b.profileId]);

    // A like, seen by the liked member.
    const like = await t.call("PUT", "/api/profile-like", {
      cookie: a.cookie,
      json: {
        likerProfileId: a.profileId,
        likedProfileId: b.profileId,
        likeType: "LIKE",
        blocked: false,
        tsCreated: 0,
      },
    });
    assert.equal(like.status, 200, like.text);
    const liked = await t.call("GET", `/api/profile-likes/by-liked/${b.profileId}`, { cookie: b.cookie });
    assert.deepEqual(liked.data.items.map((l: { likerProfileId: string }) => l.likerProfileId), [a.profileId]);

    // B's page is open; A's message reaches it live, through the remote store's watch.
    const events = await streamText(
      await t.app.request("http://localhost/api/events", { headers: { cookie: b.cookie } }),
    );
    assert.equal(events.status, 200);
    assert.ok(await events.until("event: ready"), "the stream is ready");
    const before = performance.now();
    const sent = await t.call("POST", "/api/message", {
      cookie: a.cookie,
      json: { senderProfileId: a.profileId, recipientProfileId: b.profileId, bodyText: "Hello from afar" },
    });
    assert.equal(sent.status, 201, sent.text);
    const want = `event: member\ndata: ${
      JSON.stringify({ type: "message", id: sent.data.id, from: a.profileId, to: b.profileId })
    }\n`;
    assert.ok(await events.until(want, 10_000), `the message event came: ${events.text}`);
    const ms = performance.now() - before;
    assert.ok(ms < 1500, `the message event arrived after ${ms.toFixed(0)} ms`);
    await events.close();
    const inbox = await t.call("GET", `/api/messages/between/${b.profileId}/${a.profileId}`, { cookie: b.cookie });
    assert.deepEqual(inbox.data.items.map((m: { bodyText: string }) => m.bodyText), ["Hello from afar"]);

    // What the member saw is in the remote store: another client of it reads the same.
    const other = await Deno.openKv(server.urlOf("journeys"));
    try {
      const profile = await other.get(keys.profile(a.profileId));
      assert.ok(profile.versionstamp, "the profile is in the remote store");
    } finally {
      other.close();
    }
  } finally {
    t.close();
    await server.close();
    if (token === undefined) Deno.env.delete("DENO_KV_ACCESS_TOKEN");
    else Deno.env.set("DENO_KV_ACCESS_TOKEN", token);
  }
});

Deno.test("remote KV - a long conversation is deleted, concurrent likes and positions commit, no atomic past 10 checks", async () => {
  const server = await startKvConnect({ path: ":memory:", token: TOKEN, rttMs: 5 });
  const token = Deno.env.get("DENO_KV_ACCESS_TOKEN");
  Deno.env.set("DENO_KV_ACCESS_TOKEN", TOKEN);
  const t = await testApp({ path: server.urlOf("limits") });
  try {
    const a = await t.member(), b = await t.member();
    for (let i = 0; i < 13; i++) {
      const from = i % 2 ? a : b, to = i % 2 ? b : a;
      const sent = await t.call("POST", "/api/message", {
        cookie: from.cookie,
        json: { senderProfileId: from.profileId, recipientProfileId: to.profileId, bodyText: `m${i}` },
      });
      assert.equal(sent.status, 201, sent.text);
    }
    const del = await t.call("DELETE", `/api/messages/with/${b.profileId}`, { cookie: a.cookie });
    assert.deepEqual([del.status, del.data], [200, { deleted: 13 }]);
    const left = await t.call("GET", `/api/messages/between/${a.profileId}/${b.profileId}`, { cookie: a.cookie });
    assert.deepEqual(left.data.items, []);

    // Many likes at once go through the group commit: grouped, within 10 checks an atomic.
    const fans = [];
    for (let i = 0; i < 12; i++) fans.push(await t.member(undefined, { address: `10.9.0.${i + 1}` }));
    const atomicsBefore = server.stats.atomics;
    const likes = await Promise.all(fans.map((f) =>
      t.call("PUT", "/api/profile-like", {
        cookie: f.cookie,
        json: {
          likerProfileId: f.profileId,
          likedProfileId: b.profileId,
          likeType: "LIKE",
          blocked: false,
          tsCreated: 0,
        },
      })
    ));
    assert.deepEqual(likes.map((r) => r.status), fans.map(() => 200));
    const liked = await t.call("GET", `/api/profile-likes/by-liked/${b.profileId}`, { cookie: b.cookie });
    assert.equal(liked.data.items.length, 12);
    assert.ok(server.stats.atomics > atomicsBefore);
    // And positions reported at once go through the position writes' group commit, likewise.
    const placed = await Promise.all(fans.map((f, i) =>
      t.call("PUT", `/api/profile-position/${f.profileId}`, {
        cookie: f.cookie,
        json: { overrideLat: 33.4484, overrideLon: -112.074 + i * 0.01, use: "OVERRIDE", hide: false },
      })
    ));
    assert.deepEqual(placed.map((r) => r.status), fans.map(() => 200));
    const near = await t.call("GET", "/api/profile-briefs/nearest", { cookie: fans[0].cookie });
    assert.equal(near.data.items.length, 11, "every other fan is nearby");
    assert.ok(server.stats.maxChecks <= 10, `an atomic carried ${server.stats.maxChecks} checks`);
    assert.deepEqual(server.stats.refusals, [], "the store refused nothing");
  } finally {
    t.close();
    await server.close();
    if (token === undefined) Deno.env.delete("DENO_KV_ACCESS_TOKEN");
    else Deno.env.set("DENO_KV_ACCESS_TOKEN", token);
  }
});

Deno.test("remote KV - 30 positions reported at once commit in groups of at most 10 checks, every one shown", async () => {
  const server = await startKvConnect({ path: ":memory:", token: TOKEN, rttMs: 5 });
  const token = Deno.env.get("DENO_KV_ACCESS_TOKEN");
  Deno.env.set("DENO_KV_ACCESS_TOKEN", TOKEN);
  await openKv(server.urlOf("positions"));
  try {
    const ids = Array.from({ length: 30 }, () => newId());
    await Promise.all(
      ids.map((id, i) => reportPosition(id, { lat: 52.52, lon: 13.4 + i * 0.001, use: "OVERRIDE", hide: false })),
    );
    const shown = await Promise.all(ids.map((id) => getShownPosition(id)));
    assert.equal(shown.filter((s) => s !== null).length, 30);
    assert.ok(server.stats.atomics < 30, `grouped: ${server.stats.atomics} commits for 30 reports`);
    assert.ok(server.stats.maxChecks <= 10, `an atomic carried ${server.stats.maxChecks} checks`);
    assert.deepEqual(server.stats.refusals, [], "the store refused nothing");
  } finally {
    closeKv();
    await server.close();
    if (token === undefined) Deno.env.delete("DENO_KV_ACCESS_TOKEN");
    else Deno.env.set("DENO_KV_ACCESS_TOKEN", token);
  }
});
