/** Bad input that once answered 500: each now answers 4xx with the error JSON, and stores nothing. */

import assert from "node:assert/strict";
import { testApp } from "../api.ts";
import { kvChanges, kvSnapshot } from "./kit.ts";

Deno.test("security - Origin: null or a foreign Origin on a state-changing call is refused with 403, not 500 (Host given, as a real server has)", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    const before = await kvSnapshot();
    for (
      const origin of ["null", "http://host.evil.example", "not a url", "http://", "file://", "http://localhost:99999"]
    ) {
      const calls: [string, string, unknown, string?][] = [
        ["PUT", "/api/profile", { description: "x" }, m.cookie],
        ["POST", "/api/auth/register", { email: "a@example.com", acknowledgements: [] }],
        ["DELETE", `/api/sessions/${"0".repeat(28)}`, undefined, m.cookie],
      ];
      for (const [method, path, json, cookie] of calls) {
        const r = await t.call(method, path, { json, cookie, headers: { origin, host: "localhost" } });
        assert.equal(r.status, 403, `${origin} ${method} ${path}: ${r.text}`);
        assert.equal(r.data.error.code, "forbidden");
      }
    }
    assert.deepEqual(kvChanges(before, await kvSnapshot()), []);
    // The app's own origin is still accepted.
    const own = await t.call("PUT", "/api/profile", {
      json: { description: "x" },
      cookie: m.cookie,
      headers: { origin: "http://localhost", host: "localhost" },
    });
    assert.equal(own.status, 200, own.text);
  } finally {
    t.close();
  }
});

Deno.test("security - a cursor KV never handed out (an RTL mark, junk, 10 KB) answers 400 bad_cursor, not 500", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    const lists = [
      `/api/profile-notes?authorProfileId=${m.profileId}&cursor=`,
      `/api/profile-likes/by-liker/${m.profileId}?cursor=`,
      `/api/profile-likes/by-liked/${m.profileId}?cursor=`,
      `/api/profile-pic-likes/by-liker-profileid/${m.profileId}?cursor=`,
      `/api/profile-pic-likes/by-liked-profileid/${m.profileId}?cursor=`,
    ];
    for (const list of lists) {
      for (const cursor of ["%E2%80%AE", "%00", "!!!", "%F0%9F%98%80", "..%2F..%2F"]) {
        const r = await t.call("GET", list + cursor, { cookie: m.cookie });
        assert.equal(r.status, 400, `${list}${cursor}: ${r.text}`);
        assert.equal(r.data.error.code, "bad_cursor", `${list}${cursor}`);
      }
      const long = await t.call("GET", list + "A".repeat(10_000), { cookie: m.cookie });
      assert.equal(long.status, 400, list);
    }
  } finally {
    t.close();
  }
});

Deno.test("security - a 10,000-character or malformed id in DELETE notification, push subscription and session answers 400, not 500", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    const before = await kvSnapshot();
    const ids = ["a".repeat(10_000), "..%2F..%2Fsessions", "%00", "a%20b", "%E2%80%AE", "x".repeat(65)];
    for (const base of ["/api/notification/", "/api/push-subscriptions/", "/api/sessions/"]) {
      for (const id of ids) {
        const r = await t.call("DELETE", base + id, { cookie: m.cookie });
        assert.equal(r.status, 400, `${base}${id.slice(0, 20)}: ${r.text.slice(0, 200)}`);
        assert.equal(r.data.error.code, "bad_id");
      }
      // A well-formed id that is not theirs is still a 404.
      assert.equal((await t.call("DELETE", base + "0".repeat(28), { cookie: m.cookie })).status, 404, base);
    }
    assert.deepEqual(kvChanges(before, await kvSnapshot()), []);
  } finally {
    t.close();
  }
});

Deno.test("security - a login body that claims to be a form but is not one answers 400, not 500", async () => {
  const t = await testApp();
  try {
    const before = await kvSnapshot();
    for (
      const [type, body] of [
        ["multipart/form-data; boundary=x", '{"username":"a@example.com"}'],
        ["multipart/form-data", "--x\r\nbroken"],
        ["multipart/form-data; boundary=x", ""],
      ]
    ) {
      const r = await t.call("POST", "/api/auth", { body, headers: { "content-type": type } });
      assert.equal(r.status, 400, `${type}: ${r.text}`);
      assert.equal(r.data.error.code, "bad_request");
    }
    assert.deepEqual(kvChanges(before, await kvSnapshot()), []);
  } finally {
    t.close();
  }
});
