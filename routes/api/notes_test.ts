import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
import { getAccountByEmail, setRoles } from "../../kv/accounts.ts";
import { kv } from "../../kv/db.ts";
import { newId } from "../../kv/ids.ts";

async function noteCount(): Promise<number> {
  let n = 0;
  for await (const _ of kv().list({ prefix: ["profile_notes"] })) n++;
  return n;
}

Deno.test("notes - the author writes and reads a note; tags are trimmed, deduplicated, empty ones ignored", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member();
    const q = `authorProfileId=${a.profileId}&aboutProfileId=${b.profileId}`;
    const empty = await t.call("GET", `/api/profile-note?${q}`, { cookie: a.cookie });
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.data, {
      authorProfileId: a.profileId,
      aboutProfileId: b.profileId,
      bodyText: "",
      privateTags: [],
      tsUpdated: 0,
    });
    const put = await t.call("PUT", "/api/profile-note", {
      cookie: a.cookie,
      json: {
        authorProfileId: a.profileId,
        aboutProfileId: b.profileId,
        bodyText: "Met at the bar.",
        privateTags: [" funny ", "funny", "", "   ", "Tall", "tall", "bear"],
      },
    });
    assert.equal(put.status, 200);
    assert.deepEqual(put.data.privateTags, ["funny", "Tall", "bear"]);
    const got = await t.call("GET", `/api/profile-note?${q}`, { cookie: a.cookie });
    assert.equal(got.data.bodyText, "Met at the bar.");
    assert.deepEqual(got.data.privateTags, ["funny", "Tall", "bear"]);
    const list = await t.call("GET", `/api/profile-notes?authorProfileId=${a.profileId}`, { cookie: a.cookie });
    assert.equal(list.status, 200);
    assert.equal(list.data.items.length, 1);
    assert.equal(list.data.items[0].aboutProfileId, b.profileId);
    assert.equal(list.data.cursor, null);

    const max = await t.call("PUT", "/api/profile-note", {
      cookie: a.cookie,
      json: { authorProfileId: a.profileId, aboutProfileId: b.profileId, bodyText: "x".repeat(4000), privateTags: [] },
    });
    assert.equal(max.status, 200);
    // Clearing text and tags removes the note.
    const cleared = await t.call("PUT", "/api/profile-note", {
      cookie: a.cookie,
      json: { authorProfileId: a.profileId, aboutProfileId: b.profileId, bodyText: "  ", privateTags: [" "] },
    });
    assert.equal(cleared.status, 200);
    assert.equal(await noteCount(), 0);
  } finally {
    t.close();
  }
});

Deno.test("notes - nobody but the author: the subject, another member, an admin, anonymous", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member(), c = await t.member();
    const admin = await t.member("notes-admin@example.com");
    await setRoles((await getAccountByEmail(admin.email))!.id, ["USER", "ADMIN"]);
    const note = { authorProfileId: a.profileId, aboutProfileId: b.profileId, bodyText: "secret", privateTags: ["x"] };
    assert.equal((await t.call("PUT", "/api/profile-note", { cookie: a.cookie, json: note })).status, 200);
    const q = `authorProfileId=${a.profileId}&aboutProfileId=${b.profileId}`;
    const qNone = `authorProfileId=${a.profileId}&aboutProfileId=${c.profileId}`;
    for (const who of [b, c, admin]) {
      // 403 whether or not a note exists: the answer never tells.
      assert.equal((await t.call("GET", `/api/profile-note?${q}`, { cookie: who.cookie })).status, 403);
      assert.equal((await t.call("GET", `/api/profile-note?${qNone}`, { cookie: who.cookie })).status, 403);
      assert.equal(
        (await t.call("GET", `/api/profile-notes?authorProfileId=${a.profileId}`, { cookie: who.cookie })).status,
        403,
      );
      const forged = await t.call("PUT", "/api/profile-note", { cookie: who.cookie, json: { ...note, bodyText: "x" } });
      assert.equal(forged.status, 403);
    }
    assert.equal((await t.call("GET", `/api/profile-note?${q}`)).status, 401);
    assert.equal((await t.call("GET", `/api/profile-notes?authorProfileId=${a.profileId}`)).status, 401);
    assert.equal((await t.call("PUT", "/api/profile-note", { json: note })).status, 401);
    const got = await t.call("GET", `/api/profile-note?${q}`, { cookie: a.cookie });
    assert.equal(got.data.bodyText, "secret");
    // b's own notes list does not hold a's note about b.
    const bList = await t.call("GET", `/api/profile-notes?authorProfileId=${b.profileId}`, { cookie: b.cookie });
    assert.deepEqual(bList.data.items, []);
  } finally {
    t.close();
  }
});

Deno.test("notes - bad input is a clear 400 or 404 and stores nothing", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member();
    const base = { authorProfileId: a.profileId, aboutProfileId: b.profileId, bodyText: "hi", privateTags: [] };
    const cases: [unknown, number][] = [
      [{ ...base, bodyText: "x".repeat(4001) }, 400],
      [{ ...base, bodyText: 5 }, 400],
      [{ ...base, privateTags: "tag" }, 400],
      [{ ...base, privateTags: [1] }, 400],
      [{ ...base, privateTags: ["x".repeat(41)] }, 400],
      [{ ...base, privateTags: Array.from({ length: 51 }, (_, i) => `t${i}`) }, 400],
      [{ ...base, aboutProfileId: undefined }, 400],
      [{ ...base, authorProfileId: undefined }, 400],
      [{ ...base, aboutProfileId: newId() }, 404],
      [{ ...base, aboutProfileId: "a/b" }, 400],
      [[], 400],
    ];
    for (const [json, status] of cases) {
      const r = await t.call("PUT", "/api/profile-note", { cookie: a.cookie, json });
      assert.equal(r.status, status, JSON.stringify(json).slice(0, 120));
      assert.ok(r.data.error.message);
    }
    assert.equal(
      (await t.call("GET", `/api/profile-note?authorProfileId=${a.profileId}&aboutProfileId=${newId()}`, {
        cookie: a.cookie,
      })).status,
      404,
    );
    assert.equal(
      (await t.call("GET", `/api/profile-note?authorProfileId=${a.profileId}`, { cookie: a.cookie })).status,
      400,
    );
    assert.equal((await t.call("GET", "/api/profile-notes", { cookie: a.cookie })).status, 400);
    assert.equal(await noteCount(), 0);
  } finally {
    t.close();
  }
});

Deno.test("notes - a member who blocked the author is gone for the author; the blocker keeps their notes", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member();
    const noteOf = (x: typeof a, y: typeof a) => ({
      authorProfileId: x.profileId,
      aboutProfileId: y.profileId,
      bodyText: "n",
      privateTags: [],
    });
    assert.equal((await t.call("PUT", "/api/profile-note", { cookie: a.cookie, json: noteOf(a, b) })).status, 200);
    assert.equal((await t.call("PUT", "/api/profile-note", { cookie: b.cookie, json: noteOf(b, a) })).status, 200);
    await t.call("PUT", "/api/profile-like", {
      cookie: a.cookie,
      json: { likerProfileId: a.profileId, likedProfileId: b.profileId, likeType: "UNDETERMINED", blocked: true },
    });
    assert.equal((await t.call("PUT", "/api/profile-note", { cookie: b.cookie, json: noteOf(b, a) })).status, 404);
    const bList = await t.call("GET", `/api/profile-notes?authorProfileId=${b.profileId}`, { cookie: b.cookie });
    assert.deepEqual(bList.data.items, []);
    const aNote = await t.call(
      "GET",
      `/api/profile-note?authorProfileId=${a.profileId}&aboutProfileId=${b.profileId}`,
      {
        cookie: a.cookie,
      },
    );
    assert.equal(aNote.status, 200);
    assert.equal(aNote.data.bodyText, "n");
  } finally {
    t.close();
  }
});
