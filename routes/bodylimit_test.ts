import assert from "node:assert/strict";
import { ORIGIN, testApp } from "../tests/api.ts";
import { kvChanges, kvSnapshot } from "../tests/security/kit.ts";
import { bodyLimitOf, JSON_BODY_LIMIT } from "./bodylimit.ts";
import { UPLOAD_BODY_LIMIT } from "./api/pictures.ts";
import { MAX_UPLOAD_BYTES } from "../images/pipeline.ts";

/** A body that streams `chunk`-byte pieces for ever (no Content-Length); `pulled()` counts what was read. */
function endless(chunk = 16 * 1024, first = '{"description":"') {
  let pulled = 0;
  let sentFirst = false;
  const piece = new TextEncoder().encode("x".repeat(chunk));
  const body = new ReadableStream<Uint8Array>({
    pull(ctl) {
      const next = sentFirst ? piece : new TextEncoder().encode(first);
      sentFirst = true;
      pulled += next.length;
      ctl.enqueue(next);
    },
  }, { highWaterMark: 0 });
  return { body, pulled: () => pulled };
}

Deno.test("body limit - a JSON body over 64 KB is refused 413 with the error JSON on every kind of call, and nothing is stored", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    const other = await t.member();
    const big = "x".repeat(JSON_BODY_LIMIT);
    const calls: [string, string, unknown, boolean][] = [
      ["POST", "/api/auth/register", { email: "new@example.com", acknowledgements: [big] }, false],
      ["PUT", "/api/profile", { description: big }, true],
      ["PUT", "/api/settings", { name: big, email: m.email }, true],
      [
        "POST",
        "/api/message",
        { senderProfileId: m.profileId, recipientProfileId: other.profileId, bodyText: big },
        true,
      ],
      [
        "PUT",
        "/api/profile-note",
        { authorProfileId: m.profileId, aboutProfileId: other.profileId, bodyText: big },
        true,
      ],
      ["POST", "/api/contactus-messages", { name: "Robin", message: big }, true],
      [
        "PUT",
        `/api/profile-position/${m.profileId}`,
        { use: "OVERRIDE", overrideLat: 1, overrideLon: 1, x: big },
        true,
      ],
      ["POST", "/api/push-subscriptions", { deviceName: big }, true],
    ];
    const before = await kvSnapshot();
    for (const [method, path, json, member] of calls) {
      const r = await t.call(method, path, { json, cookie: member ? m.cookie : undefined });
      assert.equal(r.status, 413, `${method} ${path}: ${r.text.slice(0, 200)}`);
      assert.equal(r.data.error.code, "too_large", `${method} ${path}`);
      assert.match(r.data.error.message, /limit of 65,536 bytes/);
      assert.equal(r.headers.get("content-type"), "application/json");
    }
    // The login form too.
    const login = await t.call("POST", "/api/auth", { form: { username: m.email, password: big } });
    assert.equal(login.status, 413);
    assert.equal(login.data.error.code, "too_large");
    assert.deepEqual(kvChanges(before, await kvSnapshot()), [], "nothing stored");
  } finally {
    t.close();
  }
});

Deno.test("body limit - a body just within 64 KB is read as usual", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    const json = JSON.stringify({ description: "Hello" });
    const body = json + " ".repeat(JSON_BODY_LIMIT - json.length);
    const r = await t.call("PUT", "/api/profile", {
      cookie: m.cookie,
      body,
      headers: { "content-type": "application/json" },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.data.description, "Hello");
    const over = await t.call("PUT", "/api/profile", {
      cookie: m.cookie,
      body: body + " ",
      headers: { "content-type": "application/json" },
    });
    assert.equal(over.status, 413);
  } finally {
    t.close();
  }
});

Deno.test("body limit - a body with no Content-Length (a stream) is cut off just past the limit and answered 413", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    const before = await kvSnapshot();
    for (const [method, path, cookie] of [["PUT", "/api/profile", m.cookie], ["POST", "/api/auth/register", ""]]) {
      const body = endless();
      const res = await t.app.request(ORIGIN + path, {
        method,
        body: body.body,
        headers: { cookie, origin: ORIGIN, "content-type": "application/json" },
      });
      assert.equal(res.status, 413, path);
      assert.equal((await res.json()).error.code, "too_large");
      assert.ok(body.pulled() <= JSON_BODY_LIMIT + 2 * 16 * 1024, `${path}: read ${body.pulled()} bytes`);
    }
    // A login form, read by formData().
    const form = endless(16 * 1024, "username=a%40b.example&password=");
    const res = await t.app.request(ORIGIN + "/api/auth", {
      method: "POST",
      body: form.body,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    assert.equal(res.status, 413);
    assert.ok(form.pulled() <= JSON_BODY_LIMIT + 2 * 16 * 1024, `read ${form.pulled()} bytes`);
    assert.deepEqual(kvChanges(before, await kvSnapshot()), [], "nothing stored");
  } finally {
    t.close();
  }
});

Deno.test("body limit - a declared Content-Length over the limit is refused before a byte is read", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    const body = endless();
    const res = await t.app.request(ORIGIN + "/api/profile", {
      method: "PUT",
      body: body.body,
      headers: { cookie: m.cookie, "content-type": "application/json", "content-length": "100000000" },
    });
    assert.equal(res.status, 413);
    assert.equal(body.pulled(), 0);
  } finally {
    t.close();
  }
});

Deno.test("body limit - a call that answers without reading its body drops the rest of it", async () => {
  const t = await testApp();
  try {
    const body = endless();
    // Anonymous: 401 before the body is read.
    const res = await t.app.request(ORIGIN + "/api/profile", {
      method: "PUT",
      body: body.body,
      headers: { "content-type": "application/json" },
    });
    assert.equal(res.status, 401);
    assert.ok(body.pulled() <= 2 * 16 * 1024, `read ${body.pulled()} bytes`);
  } finally {
    t.close();
  }
});

Deno.test("body limit - a picture upload may carry its 8,192,000 bytes plus the multipart allowance; other calls 64 KB", () => {
  const limits = { defaultBytes: JSON_BODY_LIMIT, routes: { "POST /api/profile-pic": UPLOAD_BODY_LIMIT } };
  assert.equal(bodyLimitOf(limits, "POST", "/api/profile-pic"), UPLOAD_BODY_LIMIT);
  assert.ok(UPLOAD_BODY_LIMIT > MAX_UPLOAD_BYTES && UPLOAD_BODY_LIMIT <= MAX_UPLOAD_BYTES + 64 * 1024);
  assert.equal(bodyLimitOf(limits, "PUT", "/api/profile-pic/x"), JSON_BODY_LIMIT);
  assert.equal(bodyLimitOf(limits, "PUT", "/api/profile"), JSON_BODY_LIMIT);
});

Deno.test("body limit - the support page refuses a body over 64 KB with its 'Ooops!' page and 413", async () => {
  const t = await testApp();
  try {
    const r = await t.call("POST", "/support", {
      form: { name: "Robin", email: "robin@example.com", message: "x".repeat(JSON_BODY_LIMIT) },
    });
    assert.equal(r.status, 413);
    assert.match(r.headers.get("content-type") ?? "", /text\/html/);
  } finally {
    t.close();
  }
});

Deno.test("body limit - a call refused before its body is read answers at once even when the body is one branch of a tee", async () => {
  const t = await testApp();
  try {
    const form = new FormData();
    form.set("username", "a@example.com");
    // Refused by the origin check, before the login reads its form.
    const req = new Request(ORIGIN + "/api/auth", {
      method: "POST",
      body: form,
      headers: { "sec-fetch-site": "cross-site" },
    });
    const other = req.clone(); // the body is now teed; the other branch is never read
    const res = await t.app.request(req);
    assert.equal(res.status, 403);
    await other.body?.cancel();
  } finally {
    t.close();
  }
});
