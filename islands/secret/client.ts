/**
 * Secret chats on the device, between the protocol (mls.ts), the device's store (store.ts) and
 * the API: the device registers with a stock of key packages and replenishes it; a chat is found,
 * joined from its Welcome, or started; messages are sealed, sent, fetched and opened. Loaded only
 * when a secret chat is opened (islands/Conversation.tsx imports SecretChat.tsx on demand).
 */

import type { ClientState } from "ts-mls";
import { api, ApiFailure } from "../queries/api.ts";
import { apiPath } from "../../domain/apiPath.ts";
import type { ApiAnswer } from "../../domain/contract.ts";
import type { SecretChat, SecretMessage } from "../../domain/shapes/secretChats.ts";
import {
  addDevice,
  applyCommit,
  type Control,
  credentialIdentity,
  type DeviceIdentity,
  joinChat,
  type KeyPackagePair,
  loadState,
  makeKeyPackages,
  newDevice,
  open,
  readKeyPackage,
  removeDevices,
  safetyCode,
  saveState,
  seal,
  startChat,
} from "./mls.ts";
import { deleteLocal, getLocal, localKeys, setLocal } from "./store.ts";
import { frankedText, type PictureRef } from "../../domain/secretPictures.ts";
import { SECRET_TEXTS } from "../../domain/secretChats.ts";
import { forgetPicture, keepPicture, preparePicture } from "./pictures.ts";

/** Key packages made at once; a stock below `REFILL_BELOW` on the server is topped up. */
const BATCH = 10;
const REFILL_BELOW = 5;

/** One line of a secret chat's history, as this device decrypted (or sent) it. */
export interface Entry {
  id: string;
  mine: boolean;
  text?: string;
  /** A picture the message carries: where its encrypted bytes are and how to check and open them. */
  picture?: PictureRef;
  frankingKey?: string;
  /** It could not be decrypted on this device. */
  unreadable?: boolean;
  reported?: boolean;
  /** Mine, typed while offline: kept on this device until it is sent (a local id until then). */
  pending?: boolean;
  /** Mine, refused by the server when it was sent at last (its message says why). */
  failed?: string;
  /** Unsent by its sender: this device deleted its copy (mine: the request went to their devices). */
  unsent?: boolean;
  /** A view-once picture that was viewed: theirs, shown once here and deleted; mine, their device said so. */
  viewed?: boolean;
  ts: number;
}

/** What the device keeps of a chat. */
interface LocalChat {
  state: Uint8Array;
  after?: string;
  history: Entry[];
  safety: string;
  /** Texts typed while offline, oldest first: sealed and sent when the connection is back. */
  outbox?: Entry[];
}

const deviceKey = (me: string) => `device:${me}`;
const kpKey = (me: string, ref: string) => `kp:${me}:${ref}`;
const chatKey = (id: string) => `chat:${id}`;

/** The device's identity, registered with the server and with key packages in stock; made when missing. */
export async function ensureDevice(me: string): Promise<DeviceIdentity> {
  for (let attempt = 0; attempt < 2; attempt++) {
    let device = await getLocal<DeviceIdentity>(deviceKey(me));
    let fresh: KeyPackagePair[] = [];
    if (!device) {
      device = await newDevice(me, crypto.randomUUID());
      fresh = await makeKeyPackages(device, BATCH);
      for (const kp of fresh) await setLocal(kpKey(me, kp.ref), kp);
      await setLocal(deviceKey(me), device);
    }
    try {
      const r = await api<ApiAnswer<"POST /api/secret/devices">>(apiPath("POST /api/secret/devices", {}), {
        method: "POST",
        json: { deviceId: device.deviceId, keyPackages: fresh.map((k) => k.publicB64) },
      });
      if (r.stock < REFILL_BELOW) {
        const more = await makeKeyPackages(device, BATCH);
        for (const kp of more) await setLocal(kpKey(me, kp.ref), kp);
        await api(apiPath("POST /api/secret/devices/:deviceId/key-packages", { deviceId: device.deviceId }), {
          method: "POST",
          json: { keyPackages: more.map((k) => k.publicB64) },
        });
      }
      return device;
    } catch (e) {
      // Another session's device (a new login) or one removed at logout: this browser starts over.
      if (!(e instanceof ApiFailure) || (e.status !== 409 && e.status !== 410)) throw e;
      await forgetDevice(me);
    }
  }
  throw new Error("device registration failed");
}

async function forgetDevice(me: string): Promise<void> {
  await deleteLocal(deviceKey(me));
  for (const k of await localKeys(`kp:${me}:`)) await deleteLocal(k);
}

/** The newest secret chat with `other`, or undefined. */
export async function findChat(other: string): Promise<SecretChat | undefined> {
  const r = await api<ApiAnswer<"GET /api/secret/chats">>(apiPath("GET /api/secret/chats", {}));
  return (r.items as SecretChat[]).find((c) => c.members.includes(other));
}

/** An open secret chat on this device. */
export interface OpenChat {
  chat: SecretChat;
  history: Entry[];
  safety: string;
  /** The safety code changed since this device last showed it (a device of the chat changed). */
  safetyChanged: boolean;
}

/**
 * Opens the chat on this device: its kept state, or a join from the Welcome with one of this
 * device's key packages. "other-device" when the chat is not this device's (started or joined on
 * another, or before this device existed).
 */
export async function openChat(
  me: string,
  device: DeviceIdentity,
  chat: SecretChat,
): Promise<OpenChat | "other-device"> {
  const kept = await getLocal<LocalChat>(chatKey(chat.id));
  if (kept) {
    const state = loadState(kept.state);
    const safety = await safetyCode(state);
    return { chat, history: shown(kept), safety, safetyChanged: safety !== kept.safety };
  }
  const mine = chat.devices.find((d) => d.profileId === me && d.deviceId === device.deviceId && !d.removed);
  // Added later by a device of the member's: it joins with its own Welcome and reads what came after.
  const later = chat.joins.find((j) => j.deviceId === device.deviceId);
  const welcome = later ??
    (chat.startedBy === me ? undefined : { welcome: chat.welcome, ratchetTree: chat.ratchetTree });
  if (!mine || !welcome) return "other-device";
  for (const k of await localKeys(`kp:${me}:`)) {
    const kp = await getLocal<KeyPackagePair>(k);
    if (!kp) continue;
    let state: ClientState;
    try {
      state = await joinChat(welcome.welcome, welcome.ratchetTree, kp);
    } catch {
      continue; // not the key package the Welcome was made for
    }
    await deleteLocal(k);
    const safety = await safetyCode(state);
    const after = later?.after;
    await setLocal(chatKey(chat.id), { state: saveState(state), history: [], safety, after } satisfies LocalChat);
    return { chat, history: [], safety, safetyChanged: false };
  }
  return "other-device";
}

/** Asks the member's device already in the chat to add this one (it shows the request). */
export async function askToJoin(chatId: string, device: DeviceIdentity): Promise<void> {
  await api(apiPath("POST /api/secret/chats/:chatId/join", { chatId }), {
    method: "POST",
    json: { deviceId: device.deviceId },
  });
}

/**
 * Adds a pending device of the member (approved here, on a device already in the chat): takes its
 * key package, commits the add, and passes the commit and its Welcome on. The safety code after.
 */
export function approve(chatId: string, device: DeviceIdentity, newDeviceId: string): Promise<string> {
  return serial(chatId, async () => {
    const kp = await api<ApiAnswer<"POST /api/secret/chats/:chatId/pending/:deviceId/key-package">>(
      apiPath("POST /api/secret/chats/:chatId/pending/:deviceId/key-package", { chatId, deviceId: newDeviceId }),
      { method: "POST" },
    );
    const read = await readKeyPackage(kp.keyPackage);
    if (!read) throw new Error("not a key package");
    const kept = (await getLocal<LocalChat>(chatKey(chatId)))!;
    const added = await addDevice(loadState(kept.state), read.keyPackage);
    await api(apiPath("POST /api/secret/chats/:chatId/approve", { chatId }), {
      method: "POST",
      json: {
        deviceId: device.deviceId,
        newDeviceId,
        commit: added.commitB64,
        welcome: added.welcomeB64,
        ratchetTree: added.ratchetTreeB64,
        epoch: Number(added.state.groupContext.epoch),
      },
    });
    kept.state = saveState(added.state);
    kept.safety = await safetyCode(added.state);
    await setLocal(chatKey(chatId), kept);
    return kept.safety;
  });
}

/**
 * Removes from the chat's MLS group the devices whose sessions ended (logout, 'log out elsewhere':
 * the server marks them removed), when this device stays in it: a commit the other devices apply,
 * after which the removed devices' keys open nothing new. Another device's commit may win the race:
 * this one then applies it with the next messages and looks again. The safety code after, or
 * undefined when there was nothing to remove.
 */
export function evictRemoved(chatId: string, device: DeviceIdentity, chat: SecretChat): Promise<string | undefined> {
  return serial(chatId, async () => {
    const gone = chat.devices.filter((d) => d.removed && !d.evicted && d.deviceId !== device.deviceId);
    const me = chat.devices.find((d) => d.deviceId === device.deviceId && d.profileId === device.memberId);
    if (!gone.length || !me || me.removed) return undefined;
    const kept = await getLocal<LocalChat>(chatKey(chatId));
    if (!kept) return undefined;
    const removed = await removeDevices(
      loadState(kept.state),
      gone.map((d) => credentialIdentity(d.profileId, d.deviceId)),
    );
    if (!removed) return undefined;
    try {
      await api(apiPath("POST /api/secret/chats/:chatId/evict", { chatId }), {
        method: "POST",
        json: {
          deviceId: device.deviceId,
          evicted: gone.map((d) => d.deviceId),
          commit: removed.commitB64,
          epoch: Number(removed.state.groupContext.epoch),
        },
      });
    } catch (e) {
      if (e instanceof ApiFailure && e.status === 409) return undefined;
      throw e;
    }
    kept.state = saveState(removed.state);
    kept.safety = await safetyCode(removed.state);
    await setLocal(chatKey(chatId), kept);
    return kept.safety;
  });
}

/** Starts a secret chat with `other`; throws the server's clear message when their devices cannot. */
export async function start(device: DeviceIdentity, other: string): Promise<OpenChat> {
  const claim = await api<ApiAnswer<"POST /api/secret/key-packages/claim">>(
    apiPath("POST /api/secret/key-packages/claim", {}),
    { method: "POST", json: { deviceId: device.deviceId, peerProfileId: other } },
  );
  const peers = [];
  for (const d of claim.devices) {
    const kp = await readKeyPackage(d.keyPackage);
    if (kp) peers.push(kp.keyPackage);
  }
  // The group's own first leaf: a key package made for it alone, never handed out.
  const [own] = await makeKeyPackages(device, 1);
  const started = await startChat(own, peers);
  const r = await api<ApiAnswer<"POST /api/secret/chats">>(apiPath("POST /api/secret/chats", {}), {
    method: "POST",
    json: {
      deviceId: device.deviceId,
      peerProfileId: other,
      peerDevices: claim.devices.map((d) => d.deviceId),
      groupId: started.groupId,
      welcome: started.welcomeB64,
      ratchetTree: started.ratchetTreeB64,
    },
  });
  const chat = r.chat as SecretChat;
  const safety = await safetyCode(started.state);
  await setLocal(chatKey(chat.id), { state: saveState(started.state), history: [], safety } satisfies LocalChat);
  return { chat, history: [], safety, safetyChanged: false };
}

/** One thing at a time per chat: the group state moves with each message sent or opened. */
const queues = new Map<string, Promise<unknown>>();
function serial<T>(chatId: string, fn: () => Promise<T>): Promise<T> {
  const next = (queues.get(chatId) ?? Promise.resolve()).then(fn, fn);
  queues.set(chatId, next.catch(() => {}));
  return next;
}

/** What the screen shows of a chat: its history, then what waits to be sent. */
const shown = (kept: LocalChat): Entry[] => [...kept.history, ...(kept.outbox ?? [])];

/** The call failed for want of a connection (not refused by the server). */
const offline = (e: unknown) => e instanceof ApiFailure && e.status === 0;

/** Seals a text with the chat's state and posts it; the state is kept before the call. */
async function post(
  chatId: string,
  kept: LocalChat,
  device: DeviceIdentity,
  text: string,
  picture?: PictureRef,
): Promise<Entry> {
  const sealed = await seal(loadState(kept.state), text, { picture });
  kept.state = saveState(sealed.state);
  await setLocal(chatKey(chatId), kept);
  const r = await api<ApiAnswer<"POST /api/secret/chats/:chatId/messages">>(
    apiPath("POST /api/secret/chats/:chatId/messages", { chatId }),
    {
      method: "POST",
      json: {
        deviceId: device.deviceId,
        ciphertext: sealed.ciphertextB64,
        commitment: sealed.commitmentB64,
        epoch: Number(sealed.state.groupContext.epoch),
      },
    },
  );
  return { id: r.message.id, mine: true, text, ...(picture ? { picture } : {}), ts: r.message.tsCreated };
}

/** A line whose copy this device deleted: only that it was there, and why it is gone. */
const emptied = (e: Entry, why: { unsent?: true; viewed?: true }): Entry => ({
  id: e.id,
  mine: e.mine,
  ts: e.ts,
  ...why,
});

/** Seals and posts a control: a request to the chat's other devices (no text, no notification). */
async function postControl(chatId: string, kept: LocalChat, device: DeviceIdentity, control: Control) {
  const sealed = await seal(loadState(kept.state), "", { control });
  kept.state = saveState(sealed.state);
  await setLocal(chatKey(chatId), kept);
  await api(apiPath("POST /api/secret/chats/:chatId/messages", { chatId }), {
    method: "POST",
    json: {
      deviceId: device.deviceId,
      kind: "control",
      ciphertext: sealed.ciphertextB64,
      commitment: sealed.commitmentB64,
      epoch: Number(sealed.state.groupContext.epoch),
    },
  });
}

/** Deletes a picture I sent from the server (its blob); one already gone is fine. */
async function deleteMyPicture(chatId: string, pictureId: string): Promise<void> {
  await api(apiPath("DELETE /api/secret/chats/:chatId/pictures/:pictureId", { chatId, pictureId }), {
    method: "DELETE",
  }).catch((e) => {
    if (!(e instanceof ApiFailure) || e.status !== 404) throw e;
  });
}

/**
 * Unsends a message of mine: a request to the chat's other devices (theirs and my own others) to
 * delete their copy, which this app's code obeys; a picture's encrypted bytes leave the server;
 * this device deletes its copy. What the screen shows after.
 */
export function unsend(chatId: string, device: DeviceIdentity, entry: Entry): Promise<Entry[]> {
  return serial(chatId, async () => {
    const kept = (await getLocal<LocalChat>(chatKey(chatId)))!;
    await postControl(chatId, kept, device, { do: "unsend", id: entry.id });
    if (entry.picture) {
      await deleteMyPicture(chatId, entry.picture.id);
      await forgetPicture(chatId, entry.picture.id);
    }
    kept.history = kept.history.map((e) => e.id === entry.id ? emptied(e, { unsent: true }) : e);
    await setLocal(chatKey(chatId), kept);
    return shown(kept);
  });
}

/**
 * A view-once picture of theirs was shown: this device deletes it (it kept no copy) and tells the
 * sender's devices, which delete its bytes from the server. Offline, the telling is left out: the
 * picture is gone from this device all the same.
 */
export function viewedOnce(chatId: string, device: DeviceIdentity, entry: Entry): Promise<Entry[]> {
  return serial(chatId, async () => {
    const kept = (await getLocal<LocalChat>(chatKey(chatId)))!;
    kept.history = kept.history.map((e) => e.id === entry.id ? emptied(e, { viewed: true }) : e);
    await setLocal(chatKey(chatId), kept);
    if (entry.picture) await forgetPicture(chatId, entry.picture.id);
    await postControl(chatId, kept, device, { do: "viewed", id: entry.id }).catch(() => {});
    return shown(kept);
  });
}

/**
 * Obeys another device's request about a message this device holds: an unsend from the message's
 * own sender deletes the copy; a 'viewed' from the other member marks my view-once picture viewed
 * and deletes its bytes from the server.
 */
async function obey(chatId: string, kept: LocalChat, fromMe: boolean, control: Control): Promise<void> {
  const target = kept.history.find((e) => e.id === control.id);
  if (!target) return;
  if (control.do === "unsend" && target.mine === fromMe && !target.unsent) {
    if (target.picture) await forgetPicture(chatId, target.picture.id);
    kept.history = kept.history.map((e) => e === target ? emptied(e, { unsent: true }) : e);
  }
  if (control.do === "viewed" && target.mine && !fromMe && target.picture?.once && !target.viewed) {
    await deleteMyPicture(chatId, target.picture.id).catch(() => {});
    target.viewed = true;
  }
}

/**
 * Sends a picture: redrawn on this device (no metadata left), encrypted under a fresh key,
 * uploaded as opaque bytes, then announced in an MLS message that carries its key, nonce and hash.
 * It needs the connection (a picture is not kept in the outbox): offline, it says so.
 */
export function sendPicture(chatId: string, device: DeviceIdentity, file: Blob, once = false): Promise<Entry[]> {
  return serial(chatId, async () => {
    if (navigator.onLine === false) throw new Error(SECRET_TEXTS.pictureOffline);
    const { sealed, redrawn } = await preparePicture(file);
    let up;
    try {
      up = await api<ApiAnswer<"POST /api/secret/pictures">>(
        apiPath("POST /api/secret/pictures", {}, { chatId, deviceId: device.deviceId }),
        { method: "POST", bytes: sealed.bytes },
      );
    } catch (e) {
      if (offline(e)) throw new Error(SECRET_TEXTS.pictureOffline);
      throw e;
    }
    const picture: PictureRef = {
      id: up.picture.id,
      key: sealed.key,
      iv: sealed.iv,
      sha256: sealed.sha256,
      type: redrawn.type,
      width: redrawn.width,
      height: redrawn.height,
      ...(once ? { once } : {}),
    };
    // A view-once picture is not kept here either: its sender does not see it again.
    if (!once) await keepPicture(chatId, picture.id, redrawn.bytes);
    const kept = (await getLocal<LocalChat>(chatKey(chatId)))!;
    kept.history.push(await post(chatId, kept, device, "", picture));
    await setLocal(chatKey(chatId), kept);
    return shown(kept);
  });
}

/**
 * Seals and sends a text; what the screen shows after. Offline (the browser says so, or the call
 * finds no connection), the text is kept on this device, shown as waiting, and sent by `flush`
 * when the connection is back; it is sealed then, with the chat's state of that moment.
 */
export function send(chatId: string, device: DeviceIdentity, text: string): Promise<Entry[]> {
  return serial(chatId, async () => {
    const kept = (await getLocal<LocalChat>(chatKey(chatId)))!;
    const wait = () => {
      (kept.outbox ??= []).push({
        id: `local-${crypto.randomUUID()}`,
        mine: true,
        text,
        ts: Date.now(),
        pending: true,
      });
    };
    // Behind texts already waiting, a new one waits too (they go in the order typed).
    if (navigator.onLine === false || kept.outbox?.some((e) => e.pending)) wait();
    else {
      try {
        kept.history.push(await post(chatId, kept, device, text));
      } catch (e) {
        if (!offline(e)) throw e;
        wait();
      }
    }
    await setLocal(chatKey(chatId), kept);
    return shown(kept);
  });
}

/**
 * Sends what waits in the chat's outbox, oldest first, stopping at the first that finds no
 * connection; one the server refuses stays shown as not sent, with why. What the screen shows after.
 */
export function flush(chatId: string, device: DeviceIdentity): Promise<Entry[]> {
  return serial(chatId, async () => {
    const kept = (await getLocal<LocalChat>(chatKey(chatId)))!;
    for (const e of kept.outbox ?? []) {
      if (!e.pending) continue;
      try {
        kept.history.push(await post(chatId, kept, device, e.text ?? ""));
        kept.outbox = kept.outbox!.filter((o) => o !== e);
      } catch (err) {
        if (offline(err)) break;
        e.pending = false;
        e.failed = err instanceof Error ? err.message : String(err);
      }
      await setLocal(chatKey(chatId), kept);
    }
    return shown(kept);
  });
}

/** What a look for new messages gives: the history, and the newest of mine the other member has read. */
export interface Received {
  history: Entry[];
  otherReadUpTo: string | null;
  /** The safety code now, and whether it changed (a device was added) since this device last showed it. */
  safety: string;
  safetyChanged: boolean;
}

/**
 * Fetches and opens the messages that came since the last look, and tells the server they were
 * read (the other member's receipt) when the page is in view.
 */
export function receive(chatId: string, device: DeviceIdentity): Promise<Received> {
  return serial(chatId, async () => {
    const kept = (await getLocal<LocalChat>(chatKey(chatId)))!;
    const r = await api<ApiAnswer<"GET /api/secret/chats/:chatId/messages">>(
      apiPath("GET /api/secret/chats/:chatId/messages", { chatId }, { after: kept.after }),
    );
    let state = loadState(kept.state);
    for (const m of r.items as SecretMessage[]) {
      kept.after = m.id;
      if (m.senderDeviceId === device.deviceId) continue;
      if (m.kind === "commit") {
        // A device was added: the next epoch's keys (what the safety code shows changes with it).
        try {
          state = await applyCommit(state, m.ciphertext);
        } catch { /* a commit this device cannot apply: the messages after it will say so */ }
        continue;
      }
      try {
        const o = await open(state, m.ciphertext, m.commitment);
        state = o.state;
        // A message from the member's own other device is theirs too (and not one to report).
        const mine = m.senderProfileId === device.memberId;
        if (o.control) {
          await obey(chatId, kept, mine, o.control);
          continue;
        }
        kept.history.push({
          id: m.id,
          mine,
          text: o.text,
          ...(o.picture ? { picture: o.picture } : {}),
          frankingKey: o.frankingKeyB64,
          ts: m.tsCreated,
        });
      } catch {
        if (m.kind === "control") continue;
        kept.history.push({ id: m.id, mine: m.senderProfileId === device.memberId, unreadable: true, ts: m.tsCreated });
      }
    }
    kept.state = saveState(state);
    const safety = await safetyCode(state);
    const safetyChanged = safety !== kept.safety;
    kept.safety = safety;
    await setLocal(chatKey(chatId), kept);
    const theirs = (r.items as SecretMessage[]).filter((m) =>
      m.senderDeviceId !== device.deviceId && m.kind === "text" && m.senderProfileId !== device.memberId
    ).at(-1);
    if (theirs && document.visibilityState === "visible") {
      await api(apiPath("POST /api/secret/chats/:chatId/read", { chatId }), {
        method: "POST",
        json: { messageId: theirs.id },
      }).catch(() => {});
    }
    return { history: shown(kept), otherReadUpTo: r.otherReadUpTo, safety, safetyChanged };
  });
}

/** Reports a received message: its text and franking key go to the server, which verifies them. */
export async function report(chatId: string, entry: Entry): Promise<Entry[]> {
  await api(apiPath("POST /api/secret/chats/:chatId/messages/:messageId/report", { chatId, messageId: entry.id }), {
    method: "POST",
    // What the commitment covers: the text, and a picture's hash (the server checks which blob it was).
    json: { reason: "harassment", text: frankedText(entry.text ?? "", entry.picture), frankingKey: entry.frankingKey },
  });
  return await serial(chatId, async () => {
    const kept = (await getLocal<LocalChat>(chatKey(chatId)))!;
    kept.history = kept.history.map((e) => e.id === entry.id ? { ...e, reported: true } : e);
    await setLocal(chatKey(chatId), kept);
    return shown(kept);
  });
}
