import assert from "node:assert/strict";
import { ORIGIN, testApp } from "../../tests/api.ts";
import { getBlobMeta } from "../../kv/blobs.ts";
import { deleteSecretPicturesOf, getSecretPicture, secretPictureBlobId } from "../../kv/secretChats.ts";
import {
  frankedText,
  openPicture,
  type PictureRef,
  sealPicture,
  SECRET_PICTURE_MAX_BYTES,
} from "../../domain/secretPictures.ts";
import { getNotification, listNotifications } from "../../kv/notifications.ts";
import { open, seal } from "../../islands/secret/mls.ts";
import { toBase64 } from "../../domain/franking.ts";
import { kv } from "../../kv/db.ts";
import { keys } from "../../kv/keys.ts";
import { memberWithDevice, startThroughApi, type T } from "../../tests/fixtures/secretChats.ts";

function uploadPicture(
  t: T,
  who: { cookie: string; device: { deviceId: string } },
  chatId: string,
  bytes: Uint8Array,
  type = "application/octet-stream",
) {
  return t.call("POST", `/api/secret/pictures?chatId=${chatId}&deviceId=${who.device.deviceId}`, {
    cookie: who.cookie,
    headers: { "content-type": type },
    body: bytes as Uint8Array<ArrayBuffer>,
  });
}

/** A picture's bytes as a member's page fetches them. */
async function downloadPicture(t: T, cookie: string, chatId: string, id: string) {
  const res = await t.app.request(`${ORIGIN}/api/secret/chats/${chatId}/pictures/${id}`, { headers: { cookie } });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

Deno.test("secret chats - a picture travels encrypted: opaque bytes on the server, its key inside the message, opened only by the chat's devices", async () => {
  const t = await testApp();
  try {
    const alice = await memberWithDevice(t), bob = await memberWithDevice(t), carol = await memberWithDevice(t);
    const { chat, aliceState, bobState } = await startThroughApi(t, alice, bob);
    // The picture as the device has it after redrawing it (any bytes: the server never looks).
    const plain = new TextEncoder().encode("JPEG-LIKE picture of the harbour wall at dawn ".repeat(50));
    const sealedPic = await sealPicture(plain);
    const up = await uploadPicture(t, alice, chat.id, sealedPic.bytes);
    assert.equal(up.status, 201, up.text);
    assert.equal(up.data.picture.size, sealedPic.bytes.length);
    const ref: PictureRef = { id: up.data.picture.id, ...sealedPic, type: "image/jpeg", width: 800, height: 600 };
    delete (ref as Partial<PictureRef & { bytes: unknown }>).bytes;
    const sealed = await seal(aliceState, "", { picture: ref });
    const sent = await t.call("POST", `/api/secret/chats/${chat.id}/messages`, {
      cookie: alice.cookie,
      json: {
        deviceId: alice.device.deviceId,
        ciphertext: sealed.ciphertextB64,
        commitment: sealed.commitmentB64,
        epoch: 1,
      },
    });
    assert.equal(sent.status, 201, sent.text);

    // Bob's device opens the message, fetches the blob, checks its hash and decrypts it.
    const got = await t.call("GET", `/api/secret/chats/${chat.id}/messages`, { cookie: bob.cookie });
    const opened = await open(bobState, got.data.items[0].ciphertext, got.data.items[0].commitment);
    assert.deepEqual(opened.picture, ref);
    const fetched = await downloadPicture(t, bob.cookie, chat.id, ref.id);
    assert.equal(fetched.status, 200);
    assert.equal(fetched.headers.get("content-type"), "application/octet-stream");
    assert.match(fetched.headers.get("cache-control") ?? "", /no-store/);
    assert.deepEqual(await openPicture(fetched.bytes, opened.picture!), plain);
    // Altered on the server: the hash in the message refuses it.
    const altered = fetched.bytes.slice();
    altered[0] ^= 1;
    await assert.rejects(openPicture(altered, ref), /does not match/);

    // Only the chat's two members read it; anyone else is told there is none.
    assert.equal((await downloadPicture(t, alice.cookie, chat.id, ref.id)).status, 200);
    assert.equal((await downloadPicture(t, carol.cookie, chat.id, ref.id)).status, 404);
    assert.equal((await t.app.request(`${ORIGIN}/api/secret/chats/${chat.id}/pictures/${ref.id}`)).status, 401);
    // Carol's own chat with Bob does not reach Alice's picture through its path.
    const other = await startThroughApi(t, carol, await memberWithDevice(t));
    assert.equal((await downloadPicture(t, carol.cookie, other.chat.id, ref.id)).status, 404);

    // Nothing in the store holds the picture's bytes or its key: every value, as bytes.
    const needle = "harbour wall";
    for await (const e of kv().list({ prefix: [] })) {
      const v = e.value instanceof Uint8Array ? new TextDecoder().decode(e.value) : JSON.stringify(
        e.value ?? null,
        (_k, x) => typeof x === "bigint" ? String(x) : x,
      );
      assert.ok(!v.includes(needle), `no picture bytes under ${JSON.stringify(e.key)}`);
      assert.ok(!v.includes(ref.key), `no picture key under ${JSON.stringify(e.key)}`);
    }

    // A report of the picture's message verifies the hash it carried.
    const reported = await t.call("POST", `/api/secret/chats/${chat.id}/messages/${sent.data.message.id}/report`, {
      cookie: bob.cookie,
      json: { reason: "harassment", text: frankedText("", ref), frankingKey: opened.frankingKeyB64 },
    });
    assert.equal(reported.status, 201, reported.text);

    // Alice deletes her conversation with Bob: the pictures she sent leave the server.
    const before = await getBlobMeta(secretPictureBlobId(chat.id, ref.id));
    assert.ok(before);
    assert.equal((await t.call("DELETE", `/api/messages/with/${bob.profileId}`, { cookie: alice.cookie })).status, 200);
    assert.equal(await getBlobMeta(secretPictureBlobId(chat.id, ref.id)), null);
    assert.equal((await downloadPicture(t, bob.cookie, chat.id, ref.id)).status, 404);
  } finally {
    t.close();
  }
});

Deno.test("secret chats - picture uploads: wrong type, too small, too large, another's device or chat, a stranger: 4xx that store nothing", async () => {
  const t = await testApp();
  try {
    const alice = await memberWithDevice(t), bob = await memberWithDevice(t), carol = await memberWithDevice(t);
    const { chat } = await startThroughApi(t, alice, bob);
    const ok = new Uint8Array(64);
    const cases: [string, Promise<{ status: number; text: string }>, number][] = [
      ["as JSON", uploadPicture(t, alice, chat.id, ok, "application/json"), 415],
      ["no type", uploadPicture(t, alice, chat.id, ok, ""), 415],
      ["under a tag's length", uploadPicture(t, alice, chat.id, new Uint8Array(8)), 400],
      ["empty", uploadPicture(t, alice, chat.id, new Uint8Array(0)), 400],
      ["over the limit", uploadPicture(t, alice, chat.id, new Uint8Array(SECRET_PICTURE_MAX_BYTES + 1)), 413],
      ["Bob with Alice's device", uploadPicture(t, { cookie: bob.cookie, device: alice.device }, chat.id, ok), 403],
      ["a stranger to the chat", uploadPicture(t, carol, chat.id, ok), 404],
      ["no such chat", uploadPicture(t, alice, "nochat", ok), 404],
      ["a bad chat id", uploadPicture(t, alice, "../x", ok), 400],
    ];
    for (const [what, call, status] of cases) {
      const r = await call;
      assert.equal(r.status, status, `${what}: ${r.text}`);
    }
    const missing = await t.call("POST", `/api/secret/pictures?chatId=${chat.id}`, {
      cookie: alice.cookie,
      headers: { "content-type": "application/octet-stream" },
      body: ok,
    });
    assert.equal(missing.status, 400);
    for await (const e of kv().list({ prefix: keys.secretPicturesIn(chat.id) })) assert.fail(`stored ${e.key}`);
    assert.equal((await downloadPicture(t, alice.cookie, chat.id, "nopic")).status, 404);
    // At the limit it is taken.
    assert.equal((await uploadPicture(t, alice, chat.id, new Uint8Array(SECRET_PICTURE_MAX_BYTES))).status, 201);
  } finally {
    t.close();
  }
});

Deno.test("secret chats - a chat started again and an account deleted take the chat's picture blobs with them", async () => {
  const t = await testApp();
  try {
    const alice = await memberWithDevice(t, 4), bob = await memberWithDevice(t, 4);
    const first = await startThroughApi(t, alice, bob);
    const up = await uploadPicture(t, bob, first.chat.id, new Uint8Array(100));
    assert.equal(up.status, 201);
    // A new start replaces the chat: no device can read the old one, its pictures go.
    const second = await startThroughApi(t, alice, bob);
    assert.notEqual(second.chat.id, first.chat.id);
    assert.equal(await getBlobMeta(secretPictureBlobId(first.chat.id, up.data.picture.id)), null);
    const again = await uploadPicture(t, bob, second.chat.id, new Uint8Array(100));
    assert.equal(again.status, 201);
    await deleteSecretPicturesOf(alice.profileId);
    assert.equal(await getBlobMeta(secretPictureBlobId(second.chat.id, again.data.picture.id)), null);
    assert.equal(await getSecretPicture(second.chat.id, again.data.picture.id), null);
  } finally {
    t.close();
  }
});

Deno.test("secret chats - unsend and view once are requests between devices: a control notifies no one, and only a picture's sender deletes it from the server", async () => {
  const t = await testApp();
  try {
    const alice = await memberWithDevice(t), bob = await memberWithDevice(t);
    const { chat, aliceState, bobState } = await startThroughApi(t, alice, bob);
    const sealedPic = await sealPicture(new Uint8Array(300));
    const up = await uploadPicture(t, alice, chat.id, sealedPic.bytes);
    assert.equal(up.status, 201);
    const ref: PictureRef = {
      id: up.data.picture.id,
      key: sealedPic.key,
      iv: sealedPic.iv,
      sha256: sealedPic.sha256,
      type: "image/jpeg",
      width: 1,
      height: 1,
      once: true,
    };
    const post = async (state: typeof aliceState, extras: Parameters<typeof seal>[2], kind?: string) => {
      const sealed = await seal(state, "", extras);
      const r = await t.call("POST", `/api/secret/chats/${chat.id}/messages`, {
        cookie: alice.cookie,
        json: {
          deviceId: alice.device.deviceId,
          ...(kind ? { kind } : {}),
          ciphertext: sealed.ciphertextB64,
          commitment: sealed.commitmentB64,
          epoch: 1,
        },
      });
      assert.equal(r.status, 201, r.text);
      return { state: sealed.state, message: r.data.message };
    };
    const first = await post(aliceState, { picture: ref });
    assert.equal(first.message.kind, "text");
    const [note] = await listNotifications(bob.profileId);
    await t.call("POST", `/api/secret/chats/${chat.id}/read`, {
      cookie: bob.cookie,
      json: { messageId: first.message.id },
    });
    assert.equal(await getNotification(bob.profileId, note.id), null);
    // Alice's device asks Bob's to delete the message: a control, opened as such, and no new notification.
    const control = await post(first.state, { control: { do: "unsend", id: first.message.id } }, "control");
    assert.equal(control.message.kind, "control");
    assert.equal((await listNotifications(bob.profileId)).length, 0, "a request is no new message");
    const got = await t.call("GET", `/api/secret/chats/${chat.id}/messages`, { cookie: bob.cookie });
    let state = bobState;
    const opened = [];
    for (const m of got.data.items) {
      const o = await open(state, m.ciphertext, m.commitment);
      state = o.state;
      opened.push(o);
    }
    assert.equal(opened[0].picture?.once, true);
    assert.deepEqual(opened[1].control, { do: "unsend", id: first.message.id });
    // A control cannot be reported (it carries no text).
    const report = await t.call(
      "POST",
      `/api/secret/chats/${chat.id}/messages/${control.message.id}/report`,
      { cookie: bob.cookie, json: { reason: "harassment", text: "", frankingKey: opened[1].frankingKeyB64 } },
    );
    assert.equal(report.status, 400);
    // Only the picture's sender deletes it from the server; then it is gone for both.
    const path = `/api/secret/chats/${chat.id}/pictures/${ref.id}`;
    assert.equal((await t.call("DELETE", path, { cookie: bob.cookie })).status, 403);
    assert.equal((await downloadPicture(t, bob.cookie, chat.id, ref.id)).status, 200);
    assert.equal((await t.call("DELETE", path, { cookie: alice.cookie })).status, 200);
    assert.equal((await downloadPicture(t, bob.cookie, chat.id, ref.id)).status, 404);
    assert.equal(await getBlobMeta(secretPictureBlobId(chat.id, ref.id)), null);
    assert.equal((await t.call("DELETE", path, { cookie: alice.cookie })).status, 404);
    // A kind the contract does not know is refused.
    const bad = await t.call("POST", `/api/secret/chats/${chat.id}/messages`, {
      cookie: alice.cookie,
      json: {
        deviceId: alice.device.deviceId,
        kind: "commit",
        ciphertext: "AAAA",
        commitment: toBase64(new Uint8Array(32)),
        epoch: 1,
      },
    });
    assert.equal(bad.status, 400);
  } finally {
    t.close();
  }
});
