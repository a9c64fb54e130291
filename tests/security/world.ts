/**
 * A small community for the security suites: an owner with one of everything (a picture, a note,
 * a message, a notification, a push device, a second session, a report, a crop suggestion on
 * their picture, a Hot or Not test, a Bad Boy Dungeon stay with its appeal waiting, a secret chat with the other
 * member), another member, a member the owner blocked, and an admin. Objects that a call destroys can be made again,
 * fresh, with `make`.
 */

import { type testApp } from "../api.ts";
import { fromRaw, quadrants } from "../fixtures/pictures.ts";
import { getAccountByEmail, setRoles } from "../../kv/accounts.ts";
import { createSession, sessionHandles } from "../../kv/sessions.ts";
import { notify } from "../../kv/notifications.ts";
import { REPORT_REASONS } from "../../domain/texts.ts";
import { addPasskey } from "../../kv/passkeys.ts";
import { kv } from "../../kv/db.ts";
import { keys } from "../../kv/keys.ts";
import { randomToken } from "../../kv/ids.ts";
import { putBlob } from "../../kv/blobs.ts";
import { getDevice } from "../../kv/secretChats.ts";
import { restrictionOf } from "../../kv/games/dungeon.ts";
import type { Stay } from "../../domain/shapes/dungeon.ts";
import { RESTRICTED_ACTIONS } from "../../domain/dungeon.ts";
import {
  type DeviceIdentity,
  joinChat,
  makeKeyPackages,
  newDevice,
  open,
  readKeyPackage,
  seal,
  startChat,
} from "../../islands/secret/mls.ts";

type T = Awaited<ReturnType<typeof testApp>>;

/** A member of the world: cookie, ids. */
export interface Someone {
  email: string;
  cookie: string;
  profileId: string;
  accountId: string;
}

/** The roles a call is made as. */
export const ROLES = ["anonymous", "owner", "other", "blocked", "admin"] as const;
export type Role = typeof ROLES[number];

let picBytes: Uint8Array | undefined;

/** A portrait JPEG (4:5), made once. */
async function portraitJpeg(): Promise<Uint8Array> {
  picBytes ??= new Uint8Array(await fromRaw(quadrants(160, 200), 160, 200).jpeg().toBuffer());
  return picBytes;
}

function must(r: { status: number; text: string }, what: string, ...ok: number[]) {
  if (!ok.includes(r.status)) throw new Error(`world: ${what} answered ${r.status} ${r.text.slice(0, 300)}`);
}

/** A new secret-chat device id (as a page makes one). */
const deviceIdOf = () => crypto.randomUUID().replaceAll("-", "").slice(0, 16);

/** Builds the world on a test app. */
export async function buildWorld(t: T) {
  const someone = async (name: string): Promise<Someone> => {
    const m = await t.member(`${name}@example.com`);
    return { ...m, accountId: (await getAccountByEmail(m.email))!.id };
  };
  const owner = await someone("owner");
  const other = await someone("other");
  const blocked = await someone("blocked");
  const admin = await someone("admin");
  await setRoles(admin.accountId, ["USER", "ADMIN"]);

  // Everyone at about the same place, so discovery and Map Chat find them.
  for (const [i, m] of [owner, other, blocked, admin].entries()) {
    const r = await t.call("PUT", `/api/profile-position/${m.profileId}`, {
      cookie: m.cookie,
      json: { use: "OVERRIDE", overrideLat: 52.52 + i * 0.01, overrideLon: 13.4 },
    });
    must(r, "position", 200);
  }
  for (const m of [owner, other, blocked, admin]) {
    must(
      await t.call("PUT", "/api/profile", {
        cookie: m.cookie,
        json: { description: `I am ${m.email}, a human who writes this.` },
      }),
      "profile",
      200,
    );
  }
  must(
    await t.call("PUT", "/api/profile-like", {
      cookie: owner.cookie,
      json: { likerProfileId: owner.profileId, likedProfileId: blocked.profileId, likeType: "DISLIKE", blocked: true },
    }),
    "block",
    200,
  );

  /** The owner's first public picture (made right after `make`). */
  let picture = "";
  /** The world's secret chat (made right after `make`). */
  const secret = {
    chatId: "",
    /** The owner's device in the chat, and their later device waiting to join it. */
    ownerDevice: undefined as DeviceIdentity | undefined,
    joiner: undefined as DeviceIdentity | undefined,
    /** How the owner started the chat (a new start sends it again). */
    chatBody: {} as Record<string, unknown>,
    /** The message the other member sent, and what the owner reveals to report it. */
    messageId: "",
    report: { text: "", frankingKey: "" },
    /** A message of the owner, sealed for the chat. */
    sealed: { ciphertext: "", commitment: "" },
    /** A picture the owner sent in the chat: encrypted bytes only. */
    pictureId: "",
  };
  /**
   * A secret-chat device belongs to one login session: the owner's devices move to the session the
   * owner now calls with (the suites renew sessions between routes), the chat's device in the index
   * that ending a session reads.
   */
  const bindSecret = async (sessionId: string) => {
    const op = kv().atomic();
    for (const d of [secret.ownerDevice, secret.joiner]) {
      const stored = d && await getDevice(owner.profileId, d.deviceId);
      if (!stored || stored.removed || stored.sessionId === sessionId) continue;
      op.delete(keys.secretDeviceBySession(stored.sessionId)).set(keys.secretDevice(owner.profileId, d.deviceId), {
        ...stored,
        sessionId,
      });
    }
    if (secret.ownerDevice) {
      op.set(keys.secretDeviceBySession(sessionId), {
        profileId: owner.profileId,
        deviceId: secret.ownerDevice.deviceId,
      });
    }
    await op.commit();
  };
  const make = {
    /** A public picture of the owner (or of `whose`). */
    async picture(whose: Someone = owner): Promise<string> {
      const r = await t.call("POST", "/api/profile-pic", {
        cookie: whose.cookie,
        form: {
          authorProfileId: whose.profileId,
          picfile: new File([await portraitJpeg() as Uint8Array<ArrayBuffer>], "me.jpg", { type: "image/jpeg" }),
        },
      });
      must(r, "upload", 201);
      return r.data.id;
    },
    /** A notification of the owner. */
    async notification(): Promise<string> {
      return (await notify(owner.profileId, { bodyText: "Someone liked your profile." })).id;
    },
    /** A message from the owner to the other member. */
    async message(): Promise<string> {
      const r = await t.call("POST", "/api/message", {
        cookie: owner.cookie,
        json: { senderProfileId: owner.profileId, recipientProfileId: other.profileId, bodyText: "Hello" },
      });
      must(r, "message", 201);
      return r.data.id;
    },
    /** A push device of the owner. */
    async pushSubscription(): Promise<string> {
      const r = await t.call("POST", "/api/push-subscriptions", {
        cookie: owner.cookie,
        json: {
          deviceName: "Phone",
          endpoint: `https://fcm.googleapis.com/fcm/send/${crypto.randomUUID()}`,
          auth_base64: "AAAAAAAAAAAAAAAAAAAAAA",
          p256dh_base64: "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB",
        },
      });
      must(r, "push subscription", 201);
      return r.data.id;
    },
    /** Another session of the owner (another device): its public id. */
    async session(): Promise<string> {
      return (await createSession(owner.accountId, true, "Other device")).session.id;
    },
    /**
     * A passkey of the owner, stored as registering would store it, with a credential id of 64
     * bytes (86 base64url characters), as security keys make them.
     */
    async passkey(): Promise<string> {
      const id = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(64))))
        .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
      const ok = await addPasskey({
        id,
        accountId: owner.accountId,
        publicKey: "AAAA",
        counter: 0,
        transports: ["usb"],
        deviceType: "singleDevice",
        backedUp: false,
        name: "Security key",
      });
      if (!ok) throw new Error("world: passkey not stored");
      return id;
    },
    /** A report by the owner about the other member. */
    async report(): Promise<string> {
      const r = await t.call("POST", "/api/profile-report", {
        cookie: owner.cookie,
        json: { reportedProfileId: other.profileId, reason: REPORT_REASONS[0].id, text: "Spam" },
      });
      must(r, "report", 201);
      return r.data.id;
    },
    /** A crop suggestion by the other member for a picture of the owner: its id. */
    async cropSuggestion(picId: string): Promise<string> {
      const meta = await t.call("GET", `/api/profile/pic/${picId}`, { cookie: owner.cookie });
      must(meta, "picture meta", 200);
      const r = await t.call("PUT", `/api/games/photocrop/${picId}`, {
        cookie: other.cookie,
        json: { gen: meta.data.v, x: 0, y: 0, width: 1, height: 1 },
      });
      must(r, "crop suggestion", 201);
      return r.data.id;
    },
    /**
     * A Hot or Not test of the owner on their picture and a new one, made in the store: ended, with
     * one counted vote by the other member from a pair dealt to them (stamp 1000) that they answered,
     * so 'Put the best first' can act on it and the other member may see its pictures; or, `running`,
     * a running one. Its id.
     */
    async hotTest(running = false): Promise<string> {
      const second = await make.picture();
      const t = Date.now();
      const id = randomToken(14);
      const picIds = [picture, second];
      const pair = [...picIds].sort().join("+");
      const tsEnds = t + 7 * 86_400_000;
      const op = kv().atomic()
        .set(keys.hotTest(id), {
          id,
          ownerProfileId: owner.profileId,
          picIds,
          nsfw: false,
          status: running ? "RUNNING" : "DONE",
          tsCreated: t,
          tsEnds,
          tsDone: running ? null : t,
          counted: { [picIds[0]]: running ? 0 : 1, [picIds[1]]: running ? 0 : 1 },
          careless: 0,
          skips: 0,
        })
        .set(keys.hotTestOf(owner.profileId, id), t)
        .set(keys.hotDeal(other.profileId, id), {
          left: picIds[0],
          right: picIds[1],
          ts: 1_001,
          nsfw: false,
          last: { ts: 1_000, pair },
        })
        .set(keys.hotVote(id, other.profileId, pair), {
          left: picIds[0],
          right: picIds[1],
          choice: "LEFT",
          counted: true,
          why: null,
          ts: t,
        });
      if (running) op.set(keys.hotRunning(id), { owner: owner.profileId, tsEnds });
      await op.commit();
      return id;
    },
    /**
     * A Bad Boy Dungeon stay of the owner, made in the store: with `appeal`, one that ran out while
     * its appeal waited for an admin (it restricts nothing, so the owner's other calls are unchanged);
     * otherwise one in force (the world's, when there is one). Its id.
     */
    async dungeonStay(appeal: boolean): Promise<string> {
      const current = !appeal && await restrictionOf(owner.profileId);
      if (current) return current.stayId;
      const t = Date.now();
      const stay: Stay = {
        id: randomToken(14),
        profileId: owner.profileId,
        reportId: randomToken(14),
        reason: "spam",
        lines: ["Buy followers here"],
        step: 1,
        decidedBy: "ADMIN",
        tsStart: appeal ? t - 2 * 86_400_000 : t,
        until: appeal ? t - 86_400_000 : t + 86_400_000,
        restricts: [...RESTRICTED_ACTIONS],
        quizAt: null,
        appeal: appeal ? { text: "It was a joke between friends.", ts: t - 86_400_000, status: "PENDING" } : null,
        ended: null,
        tsEnded: null,
      };
      const op = kv().atomic().set(keys.dungeonStay(owner.profileId, stay.id), stay);
      if (appeal) op.set(keys.dungeonAppeal(stay.id), { profileId: owner.profileId, ts: t - 86_400_000 });
      else op.set(keys.dungeonCurrent(owner.profileId), { stayId: stay.id, until: stay.until });
      await op.commit();
      return stay.id;
    },
    /**
     * A secret-chat device of the owner, registered through the API on their current session with
     * `stock` key packages; `join`: it then asks to join the world's secret chat (pending approval).
     */
    /** A picture the owner sends in the world's secret chat (encrypted bytes only); its id. */
    async secretPicture(): Promise<string> {
      const pic = await t.call(
        "POST",
        `/api/secret/pictures?chatId=${secret.chatId}&deviceId=${secret.ownerDevice!.deviceId}`,
        { cookie: owner.cookie, headers: { "content-type": "application/octet-stream" }, body: new Uint8Array(64) },
      );
      must(pic, "secret picture", 201);
      return pic.data.picture.id as string;
    },
    async secretDevice(stock: number, join: boolean): Promise<{ device: DeviceIdentity; kps: string[] }> {
      const device = await newDevice(owner.profileId, deviceIdOf());
      const kps = (await makeKeyPackages(device, stock)).map((k) => k.publicB64);
      must(
        await t.call("POST", "/api/secret/devices", {
          cookie: owner.cookie,
          json: { deviceId: device.deviceId, keyPackages: kps },
        }),
        "secret device",
        201,
      );
      if (join) {
        must(
          await t.call("POST", `/api/secret/chats/${secret.chatId}/join`, {
            cookie: owner.cookie,
            json: { deviceId: device.deviceId },
          }),
          "secret join",
          200,
        );
      }
      // One device per session in the session index: the owner's device in the chat (see bindSecret).
      if (secret.ownerDevice) {
        await bindSecret((await getDevice(owner.profileId, secret.ownerDevice.deviceId))!.sessionId);
      }
      return { device, kps };
    },
    /** A selfie of the owner being judged (3 2 1 Identify), made in the store (no camera, no daily limit): its id. */
    async identifyAttempt(picId: string): Promise<string> {
      const id = randomToken(18);
      await kv().set(keys.idAttempt(id), {
        id,
        profileId: owner.profileId,
        poseId: "wink",
        picIds: [picId],
        tsCreated: Date.now(),
        status: "OPEN",
        same: 0,
        notSame: 0,
        wrongPose: 0,
      });
      await putBlob(`identify-selfie:${id}`, await portraitJpeg(), { type: "image/jpeg" });
      return id;
    },
  };

  picture = await make.picture();
  const otherPicture = await make.picture(other);

  // A secret chat the owner started with the other member, through the API as the page does, and a
  // message the other member sent in it (the owner opened it: its text and franking key can report it).
  const otherDevice = await newDevice(other.profileId, deviceIdOf());
  const otherKps = await makeKeyPackages(otherDevice, 20);
  must(
    await t.call("POST", "/api/secret/devices", {
      cookie: other.cookie,
      json: { deviceId: otherDevice.deviceId, keyPackages: otherKps.map((k) => k.publicB64) },
    }),
    "other's secret device",
    201,
  );
  const ownerDevice = await make.secretDevice(3, false);
  secret.ownerDevice = ownerDevice.device;
  const ownerKps = await makeKeyPackages(ownerDevice.device, 1);
  const claim = await t.call("POST", "/api/secret/key-packages/claim", {
    cookie: owner.cookie,
    json: { deviceId: ownerDevice.device.deviceId, peerProfileId: other.profileId },
  });
  must(claim, "secret claim", 200);
  const peer = (await readKeyPackage(claim.data.devices[0].keyPackage))!;
  const started = await startChat(ownerKps[0], [peer.keyPackage]);
  const chatBody = {
    deviceId: ownerDevice.device.deviceId,
    peerProfileId: other.profileId,
    peerDevices: [otherDevice.deviceId],
    groupId: started.groupId,
    welcome: started.welcomeB64,
    ratchetTree: started.ratchetTreeB64,
  };
  const created = await t.call("POST", "/api/secret/chats", { cookie: owner.cookie, json: chatBody });
  must(created, "secret chat", 201);
  secret.chatId = created.data.chat.id;
  secret.chatBody = chatBody;
  const otherState = await joinChat(
    started.welcomeB64,
    started.ratchetTreeB64,
    otherKps.find((k) => k.ref === peer.ref)!,
  );
  const fromOther = await seal(otherState, "Call me tonight");
  const sent = await t.call("POST", `/api/secret/chats/${secret.chatId}/messages`, {
    cookie: other.cookie,
    json: {
      deviceId: otherDevice.deviceId,
      ciphertext: fromOther.ciphertextB64,
      commitment: fromOther.commitmentB64,
      epoch: 1,
    },
  });
  must(sent, "secret message", 201);
  secret.messageId = sent.data.message.id;
  const opened = await open(started.state, fromOther.ciphertextB64, fromOther.commitmentB64);
  secret.report = { text: opened.text, frankingKey: opened.frankingKeyB64 };
  const fromOwner = await seal(opened.state, "Sure, at nine");
  secret.sealed = { ciphertext: fromOwner.ciphertextB64, commitment: fromOwner.commitmentB64 };
  secret.pictureId = await make.secretPicture();
  secret.joiner = (await make.secretDevice(20, true)).device;
  /** The sessions the last `renewSessions` made (the next one ends them). */
  let renewed = new Set<string>();
  const world = {
    owner,
    other,
    blocked,
    admin,
    make,
    ids: {
      picture,
      /** A public picture of the other member (for the owner's picture likes). */
      otherPicture,
      notification: await make.notification(),
      message: await make.message(),
      pushSubscription: await make.pushSubscription(),
      session: await make.session(),
      passkey: await make.passkey(),
      report: await make.report(),
      cropSuggestion: await make.cropSuggestion(picture),
      identifyAttempt: await make.identifyAttempt(picture),
      hotTest: await make.hotTest(),
      dungeonAppeal: await make.dungeonStay(true),
      secretChat: secret.chatId,
      secretMessage: secret.messageId,
      secretPicture: secret.pictureId,
    },
    secret,
    /** New sessions for every member (a call may have ended theirs: logout, "log out everywhere"). */
    async renewSessions() {
      const made = new Set<string>();
      for (const m of [owner, other, blocked, admin]) {
        // The test app is served on http://localhost, a secure context: the cookie has its __Host- name.
        // A login-link session, as `t.member` makes: fresh, so ending a session needs no password.
        const s = await createSession(m.accountId, true, "Test", "link");
        m.cookie = `__Host-sid=${s.token}`;
        if (m === owner) await bindSecret(s.session.id);
        made.add(s.session.id);
      }
      // The sessions the last renewal made go as an expiry removes them, but one a device still belongs
      // to (one registered during a route: the next call that reads it would remove it, a refused call
      // too): a suite that renews them for each of its routes leaves each member a few sessions, not
      // four per route.
      const held = new Set<string>();
      for (const m of [owner, other, blocked, admin]) {
        for await (const e of kv().list<{ sessionId: string }>({ prefix: keys.secretDevicesOf(m.profileId) })) {
          held.add(e.value.sessionId);
        }
      }
      const op = kv().atomic();
      let ended = 0;
      for (const m of [owner, other, blocked, admin]) {
        for (const h of await sessionHandles(m.accountId)) {
          if (!renewed.has(h.id) || held.has(h.id)) continue;
          op.delete(keys.session(h.tokenHash)).delete(keys.sessionByAccount(m.accountId, h.id));
          ended++;
        }
      }
      if (ended) await op.commit();
      renewed = made;
    },
    /** A portrait JPEG to upload. */
    jpeg: async () => await portraitJpeg() as Uint8Array<ArrayBuffer>,
    /** The cookie of a role (none for anonymous). */
    cookieOf(role: Role): string | undefined {
      return role === "anonymous" ? undefined : world[role].cookie;
    },
  };
  must(
    await t.call("PUT", "/api/profile-note", {
      cookie: owner.cookie,
      json: { authorProfileId: owner.profileId, aboutProfileId: other.profileId, bodyText: "Nice", privateTags: ["x"] },
    }),
    "note",
    200,
  );
  return world;
}

export type World = Awaited<ReturnType<typeof buildWorld>>;
