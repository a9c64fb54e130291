import assert from "node:assert/strict";
import sharp from "sharp";
import { testApp } from "../../tests/api.ts";
import { getAccountByEmail, setRoles } from "../../kv/accounts.ts";
import { blockIndexOps } from "../../kv/blocks.ts";
import { kv } from "../../kv/db.ts";
import { getProfile } from "../../kv/profiles.ts";

type T = Awaited<ReturnType<typeof testApp>>;
type Member = Awaited<ReturnType<T["member"]>>;

async function addPic(t: T, m: Member): Promise<string> {
  const png = await sharp({ create: { width: 40, height: 50, channels: 3, background: "#c2185b" } }).png().toBuffer();
  const r = await t.call("POST", "/api/profile-pic", {
    cookie: m.cookie,
    form: { authorProfileId: m.profileId, picfile: new File([new Uint8Array(png)], "a.png"), picfilename: "a.png" },
  });
  assert.equal(r.status, 201, r.text);
  return r.data.id;
}

Deno.test("profiles - anonymous calls are 401", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    assert.equal((await t.call("GET", "/api/profiles/mine")).status, 401);
    assert.equal((await t.call("GET", `/api/profile/${m.profileId}`)).status, 401);
    assert.equal((await t.call("PUT", "/api/profile", { json: { profilename: "X" } })).status, 401);
  } finally {
    t.close();
  }
});

Deno.test("profiles - the owner reads everything of their own; others never the account, birthdate or private pictures", async () => {
  const t = await testApp();
  try {
    const owner = await t.member();
    const other = await t.member();
    const admin = await t.member("admin-profiles@example.com");
    await setRoles((await getAccountByEmail(admin.email))!.id, ["USER", "ADMIN"]);
    const pub = await addPic(t, owner);
    const priv = await addPic(t, owner);
    const saved = await t.call("PUT", "/api/profile", {
      cookie: owner.cookie,
      json: {
        profilename: "Robin",
        birthdate: "1990-06-15",
        height: "6'1\"",
        weight: "80 kg",
        description: "Coffee first.",
        characteristics: ["Top", "PrEP", "coffee"],
        profilePicIds: [pub],
        profilePicIdsPrivate: [priv],
      },
    });
    assert.equal(saved.status, 200, saved.text);

    const mine = await t.call("GET", "/api/profiles/mine", { cookie: owner.cookie });
    assert.equal(mine.status, 200);
    assert.equal(mine.data.length, 1);
    const own = mine.data[0];
    assert.equal(own.id, owner.profileId);
    assert.equal(own.own, true);
    assert.equal(own.birthdate, "1990-06-15");
    assert.deepEqual(own.characteristics, ["top", "prep", "coffee"]);
    assert.deepEqual(own.profilePicIdsPrivate, [priv]);
    assert.deepEqual(own.pictures.map((p: { id: string }) => p.id), [pub, priv]);
    assert.equal("accountId" in own, false);
    const edited = (await getProfile(owner.profileId))!.tsUpdated;
    assert.equal(own.tsUpdated, edited, "the owner is told their last edit as it is");

    for (const viewer of [other, admin]) {
      const seen = await t.call("GET", `/api/profile/${owner.profileId}`, { cookie: viewer.cookie });
      assert.equal(seen.status, 200);
      const p = seen.data;
      assert.equal(p.profilename, "Robin");
      assert.equal(typeof p.age, "number");
      assert.equal(p.own, false);
      assert.deepEqual(p.profilePicIds, [pub]);
      assert.deepEqual(p.profilePicIdsPrivate, []);
      assert.deepEqual(p.pictures.map((x: { id: string }) => x.id), [pub]);
      for (const secret of ["accountId", "birthdate", "roles"]) assert.equal(secret in p, false, secret);
      assert.equal(
        p.tsUpdated,
        Math.floor(edited / 3_600_000) * 3_600_000,
        "others are told the hour of the last edit",
      );
      assert.ok(!seen.text.includes(priv), "the private picture id appears nowhere");
      assert.ok(!seen.text.includes((await getProfile(owner.profileId))!.accountId), "the account id appears nowhere");
    }
    assert.equal((await t.call("GET", "/api/profile/nope", { cookie: other.cookie })).status, 400);
    assert.equal((await t.call("GET", `/api/profile/${"0".repeat(28)}`, { cookie: other.cookie })).status, 404);
  } finally {
    t.close();
  }
});

Deno.test("profiles - a block hides the profile both ways (404), never from its owner", async () => {
  const t = await testApp();
  try {
    const a = await t.member();
    const b = await t.member();
    const op = kv().atomic();
    blockIndexOps(op, a.profileId, b.profileId, true, Date.now());
    await op.commit();
    assert.equal((await t.call("GET", `/api/profile/${a.profileId}`, { cookie: b.cookie })).status, 404);
    assert.equal((await t.call("GET", `/api/profile/${b.profileId}`, { cookie: a.cookie })).status, 404);
    assert.equal((await t.call("GET", `/api/profile/${a.profileId}`, { cookie: a.cookie })).status, 200);
  } finally {
    t.close();
  }
});

Deno.test("profiles - only one's own profile can be changed: 403 for others, admins included; nothing stored", async () => {
  const t = await testApp();
  try {
    const owner = await t.member();
    const other = await t.member();
    const admin = await t.member("admin-put@example.com");
    await setRoles((await getAccountByEmail(admin.email))!.id, ["USER", "ADMIN"]);
    const before = await getProfile(owner.profileId);
    for (const who of [other, admin]) {
      const r = await t.call("PUT", "/api/profile", {
        cookie: who.cookie,
        json: { id: owner.profileId, profilename: "Hacked" },
      });
      assert.equal(r.status, 403);
    }
    assert.deepEqual(await getProfile(owner.profileId), before);
    // Fields that are not the member's to set are ignored.
    const r = await t.call("PUT", "/api/profile", {
      cookie: owner.cookie,
      json: { id: owner.profileId, profilename: "Me", roles: ["ADMIN"], accountId: "x", tsUpdated: 1 },
    });
    assert.equal(r.status, 200);
    const after = (await getProfile(owner.profileId))!;
    assert.deepEqual(after.roles, before!.roles);
    assert.equal(after.accountId, before!.accountId);
    assert.equal(after.profilename, "Me");
  } finally {
    t.close();
  }
});

Deno.test("profiles - bad input is a clear 400 and changes nothing", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    const ok = await t.call("PUT", "/api/profile", {
      cookie: m.cookie,
      json: { profilename: "Sam", birthdate: "1985-01-02", description: "hello" },
    });
    assert.equal(ok.status, 200);
    const before = await getProfile(m.profileId);
    const bad: [unknown, RegExp][] = [
      [{ profilename: "" }, /Name is required/],
      [{ profilename: "   " }, /Name is required/],
      [{ profilename: "x".repeat(51) }, /At most 50/],
      [{ profilename: "a\u0000b" }, /Control characters/],
      [{ description: "x".repeat(4001) }, /at most 4000/],
      [{ birthdate: "2001-02-30" }, /real, past date/],
      [{ birthdate: "3000-01-01" }, /real, past date/],
      [{ birthdate: "1-2-3" }, /real, past date/],
      [{ characteristics: ["top", "unicorn"] }, /Unknown characteristics: unicorn/],
      [{ characteristics: "top" }, /characteristics/],
      [{ height: "x".repeat(41) }, /At most 40/],
      [{ weight: 80 }, /weight/],
      [{ profilePicIds: ["nope"] }, /Not a picture id/],
      ["not an object", /expected object/i],
    ];
    for (const [json, message] of bad) {
      const r = await t.call("PUT", "/api/profile", { cookie: m.cookie, json });
      assert.equal(r.status, 400, JSON.stringify(json));
      assert.equal(r.data.error.code, "bad_request");
      assert.match(r.data.error.message, message, JSON.stringify(json));
    }
    const notJson = await t.call("PUT", "/api/profile", {
      cookie: m.cookie,
      body: "{",
      headers: { "content-type": "application/json" },
    });
    assert.equal(notJson.status, 400);
    assert.deepEqual(await getProfile(m.profileId), before, "nothing stored after bad input");
    // A description of exactly 4000 characters is fine.
    assert.equal(
      (await t.call("PUT", "/api/profile", { cookie: m.cookie, json: { description: "é".repeat(4000) } })).status,
      200,
    );
  } finally {
    t.close();
  }
});

Deno.test("profiles - birthdate: YYYY-MM-DD, anything not of three parts becomes today with no age; age is derived", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    const put = (birthdate: string) => t.call("PUT", "/api/profile", { cookie: m.cookie, json: { birthdate } });
    const today = new Date().toISOString().slice(0, 10);
    assert.equal((await put("garbage")).data.birthdate, today);
    assert.equal((await put("")).data.birthdate, today);
    // "Garbage becomes today" (spec §5) stores today, and shows no age rather than "0".
    assert.equal((await put("")).data.age, null);
    const y = new Date().getUTCFullYear() - 30;
    const r = await put(`${y}-01-01`);
    assert.equal(r.data.birthdate, `${y}-01-01`);
    assert.equal(r.data.age, 30);
  } finally {
    t.close();
  }
});

Deno.test("profiles - 18+ means 18+: a birthdate under 18 is refused with a clear message and nothing changes", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    const put = (birthdate: string) => t.call("PUT", "/api/profile", { cookie: m.cookie, json: { birthdate } });
    assert.equal((await put("1990-05-05")).status, 200);
    for (const young of ["2020-01-01", `${new Date().getUTCFullYear() - 17}-01-01`]) {
      const r = await put(young);
      assert.equal(r.status, 400, young);
      assert.equal(r.data.error.code, "under_age");
      assert.equal(r.data.error.message, "Members must be 18 or older. Please enter your real birthdate.");
    }
    const mine = await t.call("GET", "/api/profiles/mine", { cookie: m.cookie });
    assert.equal(mine.data[0].birthdate, "1990-05-05");
  } finally {
    t.close();
  }
});

Deno.test("profiles - picture lists: reorder and move public↔private; foreign, repeated or missing ids refused", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    const other = await t.member();
    const [a, b, c] = [await addPic(t, m), await addPic(t, m), await addPic(t, m)];
    const theirs = await addPic(t, other);
    const put = (json: unknown) => t.call("PUT", "/api/profile", { cookie: m.cookie, json });
    const r = await put({ profilePicIds: [c, a], profilePicIdsPrivate: [b] });
    assert.equal(r.status, 200);
    assert.deepEqual([r.data.profilePicIds, r.data.profilePicIdsPrivate], [[c, a], [b]]);
    // One list alone is completed by the stored other one.
    const alone = await put({ profilePicIds: [a, c] });
    assert.equal(alone.status, 200);
    assert.deepEqual([alone.data.profilePicIds, alone.data.profilePicIdsPrivate], [[a, c], [b]]);

    const before = await getProfile(m.profileId);
    assert.equal((await put({ profilePicIds: [a, c, theirs], profilePicIdsPrivate: [b] })).status, 403);
    assert.equal((await put({ profilePicIds: [a, c, "0".repeat(28)], profilePicIdsPrivate: [b] })).status, 403);
    assert.equal((await put({ profilePicIds: [a, c, b], profilePicIdsPrivate: [b] })).status, 400);
    const dropped = await put({ profilePicIds: [a], profilePicIdsPrivate: [b] });
    assert.equal(dropped.status, 409);
    assert.equal(dropped.data.error.code, "pics_changed");
    assert.deepEqual(await getProfile(m.profileId), before);
    const otherView = await t.call("GET", `/api/profile/${other.profileId}`, { cookie: other.cookie });
    assert.deepEqual(otherView.data.profilePicIds, [theirs], "the other member's list is untouched");
  } finally {
    t.close();
  }
});
