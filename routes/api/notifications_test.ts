import assert from "node:assert/strict";
import { createECDH, randomBytes } from "node:crypto";
import ece from "http_ece";
import { Buffer } from "node:buffer";
import { testApp } from "../../tests/api.ts";
import { notify } from "../../kv/notifications.ts";
import { listPushSubscriptions } from "../../kv/push.ts";
import { getAccountByEmail } from "../../kv/accounts.ts";
import { runDueJobs } from "../../workers/jobs.ts";
import { handlers } from "../../workers/run.ts";

const b64url = (b: Uint8Array) =>
  btoa(String.fromCharCode(...b)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

Deno.test("notifications - a member lists and deletes only their own", async () => {
  const t = await testApp();
  try {
    const a = await t.member();
    const b = await t.member();
    const n = await notify(a.profileId, { bodyText: "Someone liked your profile", url: "/likes/profilelikedyou" });
    const list = await t.call("GET", `/api/notifications/${a.profileId}`, { cookie: a.cookie });
    assert.equal(list.status, 200);
    assert.deepEqual(list.data.map((x: { bodyText: string }) => x.bodyText), ["Someone liked your profile"]);
    assert.equal(list.data[0].url, "/likes/profilelikedyou");
    assert.equal((await t.call("GET", `/api/notifications/${a.profileId}`, { cookie: b.cookie })).status, 403);
    assert.equal((await t.call("GET", `/api/notifications/${a.profileId}`)).status, 401);
    assert.equal((await t.call("DELETE", `/api/notification/${n.id}`, { cookie: b.cookie })).status, 404);
    assert.equal((await t.call("DELETE", `/api/notification/${n.id}`, { cookie: a.cookie })).status, 200);
    assert.deepEqual((await t.call("GET", `/api/notifications/${a.profileId}`, { cookie: a.cookie })).data, []);
  } finally {
    t.close();
  }
});

Deno.test("notifications - push devices: only known push services, listed in settings, removed by their owner", async () => {
  const t = await testApp();
  try {
    const a = await t.member();
    const b = await t.member();
    const keys = {
      auth_base64: b64url(randomBytes(16)),
      p256dh_base64: b64url(createECDH("prime256v1").generateKeys()),
    };
    for (
      const endpoint of [
        "http://fcm.googleapis.com/fcm/send/x",
        "https://evil.example/push",
        "https://fcm.googleapis.com:8443/x",
        "nope",
      ]
    ) {
      const r = await t.call("POST", "/api/push-subscriptions", {
        cookie: a.cookie,
        json: { deviceName: "Phone", endpoint, expirationTime: 0, ...keys },
      });
      assert.equal(r.status, 400, endpoint);
    }
    const ok = await t.call("POST", "/api/push-subscriptions", {
      cookie: a.cookie,
      json: {
        deviceName: "Chrome on Android",
        endpoint: "https://fcm.googleapis.com/fcm/send/abc",
        expirationTime: null,
        ...keys,
      },
    });
    assert.equal(ok.status, 201);
    const settings = await t.call("GET", "/api/settings", { cookie: a.cookie });
    assert.equal(settings.data.pushSubscriptions.length, 1);
    assert.equal(settings.data.pushSubscriptions[0].deviceName, "Chrome on Android");
    assert.equal(settings.data.pushSubscriptions[0].auth_base64, undefined, "device keys stay on the server");
    assert.match(settings.data.applicationServerKey, /^[A-Za-z0-9_-]{80,}$/);
    assert.equal((await t.call("DELETE", `/api/push-subscriptions/${ok.data.id}`, { cookie: b.cookie })).status, 404);
    assert.equal((await t.call("DELETE", `/api/push-subscriptions/${ok.data.id}`, { cookie: a.cookie })).status, 200);
    assert.equal((await t.call("GET", "/api/settings", { cookie: a.cookie })).data.pushSubscriptions.length, 0);
  } finally {
    t.close();
  }
});

Deno.test("notifications - push is delivered encrypted to the device; a 410 removes the device", async () => {
  const received: Uint8Array[] = [];
  let answer = 201;
  const receiver = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (req) => {
    received.push(new Uint8Array(await req.arrayBuffer()));
    return new Response(null, { status: answer });
  });
  const origin = `http://127.0.0.1:${receiver.addr.port}`;
  Deno.env.set("PUSH_EXTRA_ORIGINS", origin);
  const t = await testApp();
  try {
    const a = await t.member("pushed@example.com");
    const device = createECDH("prime256v1");
    const p256dh = device.generateKeys();
    const auth = randomBytes(16);
    const r = await t.call("POST", "/api/push-subscriptions", {
      cookie: a.cookie,
      json: {
        deviceName: "Test",
        endpoint: `${origin}/push/1`,
        expirationTime: 0,
        auth_base64: b64url(auth),
        p256dh_base64: b64url(p256dh),
      },
    });
    assert.equal(r.status, 201);
    await notify(a.profileId, { bodyText: "Someone liked your profile", url: "/likes/profilelikedyou" });
    await runDueJobs(handlers);
    assert.equal(received.length, 1);
    const plain = ece.decrypt(Buffer.from(received[0]), { version: "aes128gcm", privateKey: device, authSecret: auth });
    const payload = JSON.parse(new TextDecoder().decode(plain));
    assert.deepEqual(payload, { title: "Lambda", body: "Someone liked your profile", url: "/likes/profilelikedyou" });

    answer = 410;
    await notify(a.profileId, { bodyText: "Another" });
    await runDueJobs(handlers);
    assert.equal(received.length, 2);
    const account = await getAccountByEmail("pushed@example.com");
    assert.deepEqual(await listPushSubscriptions(account!.id), [], "the gone device was removed");
  } finally {
    Deno.env.delete("PUSH_EXTRA_ORIGINS");
    t.close();
    await receiver.shutdown();
  }
});

Deno.test("notifications - the event stream tells a member at once when a notification arrives", async () => {
  const t = await testApp();
  try {
    const a = await t.member();
    const res = await t.app.request("http://localhost/api/events", { headers: { cookie: a.cookie } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type")!, /text\/event-stream/);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes("event: version")) text += (await reader.read()).value;
    const before = performance.now();
    await notify(a.profileId, { bodyText: "Hi" });
    while (!/data: 1\n/.test(text)) text += (await reader.read()).value;
    assert.ok(performance.now() - before < 1000, "well under a second");
    await reader.cancel();
    assert.equal((await t.app.request("http://localhost/api/events")).status, 401);
  } finally {
    t.close();
  }
});

Deno.test("notifications - a new like tells the liked member discreetly, once", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member();
    const like = (likeType: string) =>
      t.call("PUT", "/api/profile-like", {
        cookie: a.cookie,
        json: { likerProfileId: a.profileId, likedProfileId: b.profileId, likeType, tsCreated: 0 },
      });
    assert.equal((await like("LIKE")).status, 200);
    assert.equal((await like("LIKE")).status, 200);
    const list = await t.call("GET", `/api/notifications/${b.profileId}`, { cookie: b.cookie });
    assert.deepEqual(list.data.map((n: { bodyText: string }) => n.bodyText), ["Someone liked your profile."]);
    assert.equal(list.data[0].url, "/likes/profilelikedyou");
    assert.equal((await like("DISLIKE")).status, 200);
    assert.equal((await t.call("GET", `/api/notifications/${b.profileId}`, { cookie: b.cookie })).data.length, 1);
    assert.deepEqual((await t.call("GET", `/api/notifications/${a.profileId}`, { cookie: a.cookie })).data, []);
  } finally {
    t.close();
  }
});
