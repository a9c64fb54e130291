/**
 * The secret chats' protocol, on the device: MLS (RFC 9420) through ts-mls, cipher suite 1
 * (X25519, AES-128-GCM, SHA-256, Ed25519). A device has one signing key and a stock of key
 * packages (its one-time keys, public halves on the server); a secret chat is an MLS group of the
 * two members' devices; each message is an MLS application message whose content holds the text
 * and its franking key (domain/franking.ts). Nothing here talks to the server or to storage: the
 * module is pure, so it is tested in Deno (mls_test.ts) and loaded by the browser only when a
 * secret chat is opened (islands/secret/).
 */

import {
  type ClientState,
  createApplicationMessage,
  createCommit,
  createGroup,
  decodeMlsMessage,
  defaultCapabilities,
  defaultLifetime,
  emptyPskIndex,
  encodeMlsMessage,
  generateKeyPackageWithKey,
  getCiphersuiteFromName,
  getCiphersuiteImpl,
  joinGroup,
  type KeyPackage,
  type PrivateKeyPackage,
  processPrivateMessage,
  type Proposal,
} from "ts-mls";
import type { CiphersuiteImpl } from "ts-mls/crypto/ciphersuite.js";
import { decodeGroupState, encodeGroupState } from "ts-mls/clientState.js";
import { defaultClientConfig } from "ts-mls/clientConfig.js";
import { decodeRatchetTree, encodeRatchetTree } from "ts-mls/ratchetTree.js";
import { makeKeyPackageRef } from "ts-mls/keyPackage.js";
import { frankingCommitment, frankingVerifies, fromBase64, newFrankingKey, toBase64 } from "../../domain/franking.ts";
import { frankedText, isPictureRef, type PictureRef } from "../../domain/secretPictures.ts";

/** The MLS cipher suite of every secret chat. */
export const CIPHER_SUITE = "MLS_128_DHKEMX25519_AES128GCM_SHA256_Ed25519" as const;

let suite: Promise<CiphersuiteImpl> | undefined;
/** The cipher suite's implementation (made once). */
export function cipherSuite(): Promise<CiphersuiteImpl> {
  return suite ??= getCiphersuiteImpl(getCiphersuiteFromName(CIPHER_SUITE));
}

/** A device's long-lived identity: its id and its signing key pair (private half stays on the device). */
export interface DeviceIdentity {
  deviceId: string;
  memberId: string;
  signKey: Uint8Array;
  publicKey: Uint8Array;
}

/** One key package: the public half for the server (base64 MLS message), the private half for the device. */
export interface KeyPackagePair {
  /** Hex of the key package's reference (RFC 9420 §5.2): how the device finds the private half again. */
  ref: string;
  publicB64: string;
  publicPackage: KeyPackage;
  privatePackage: PrivateKeyPackage;
}

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/** The identity written in a device's MLS credential: member and device. */
export function credentialIdentity(memberId: string, deviceId: string): string {
  return `${memberId}/${deviceId}`;
}

/** A new device identity with a fresh Ed25519 signing key. */
export async function newDevice(memberId: string, deviceId: string): Promise<DeviceIdentity> {
  const cs = await cipherSuite();
  const { signKey, publicKey } = await cs.signature.keygen();
  return { deviceId, memberId, signKey, publicKey };
}

/** `count` fresh key packages for a device, signed with its key. */
export async function makeKeyPackages(device: DeviceIdentity, count: number): Promise<KeyPackagePair[]> {
  const cs = await cipherSuite();
  const credential = {
    credentialType: "basic" as const,
    identity: utf8.encode(credentialIdentity(device.memberId, device.deviceId)),
  };
  const out: KeyPackagePair[] = [];
  for (let i = 0; i < count; i++) {
    const kp = await generateKeyPackageWithKey(
      credential,
      defaultCapabilities(),
      defaultLifetime,
      [],
      { signKey: device.signKey, publicKey: device.publicKey },
      cs,
    );
    const publicB64 = toBase64(
      encodeMlsMessage({ keyPackage: kp.publicPackage, wireformat: "mls_key_package", version: "mls10" }),
    );
    out.push({
      ref: hex(await makeKeyPackageRef(kp.publicPackage, cs.hash)),
      publicB64,
      publicPackage: kp.publicPackage,
      privatePackage: kp.privatePackage,
    });
  }
  return out;
}

/** A key package from the server's base64, with its reference; undefined when it is not one. */
export async function readKeyPackage(b64: string): Promise<{ ref: string; keyPackage: KeyPackage } | undefined> {
  const bytes = fromBase64(b64);
  const m = bytes && decodeMlsMessage(bytes, 0)?.[0];
  if (!m || m.wireformat !== "mls_key_package") return undefined;
  const cs = await cipherSuite();
  return { ref: hex(await makeKeyPackageRef(m.keyPackage, cs.hash)), keyPackage: m.keyPackage };
}

/** What starting a secret chat gives: the starter's group state and what the other devices join with. */
export interface Started {
  state: ClientState;
  groupId: string;
  welcomeB64: string;
  ratchetTreeB64: string;
}

/** Starts a secret chat: a new group of this device, adding the other member's devices' key packages. */
export async function startChat(own: KeyPackagePair, peers: KeyPackage[]): Promise<Started> {
  const cs = await cipherSuite();
  const groupIdBytes = crypto.getRandomValues(new Uint8Array(16));
  let state = await createGroup(groupIdBytes, own.publicPackage, own.privatePackage, [], cs);
  const extraProposals: Proposal[] = peers.map((keyPackage) => ({ proposalType: "add", add: { keyPackage } }));
  const commit = await createCommit({ state, cipherSuite: cs }, { extraProposals });
  state = commit.newState;
  if (!commit.welcome) throw new Error("no welcome for the other devices");
  return {
    state,
    groupId: hex(groupIdBytes),
    welcomeB64: toBase64(encodeMlsMessage({ welcome: commit.welcome, wireformat: "mls_welcome", version: "mls10" })),
    ratchetTreeB64: toBase64(encodeRatchetTree(state.ratchetTree)),
  };
}

/** Joins a secret chat from the Welcome the starter left for one of this device's key packages. */
export async function joinChat(welcomeB64: string, ratchetTreeB64: string, own: KeyPackagePair): Promise<ClientState> {
  const cs = await cipherSuite();
  const w = decodeMlsMessage(fromBase64(welcomeB64) ?? new Uint8Array(), 0)?.[0];
  if (!w || w.wireformat !== "mls_welcome") throw new Error("not a welcome");
  const tree = decodeRatchetTree(fromBase64(ratchetTreeB64) ?? new Uint8Array(), 0)?.[0];
  return await joinGroup(w.welcome, own.publicPackage, own.privatePackage, emptyPskIndex, cs, tree);
}

/** What adding a device to a chat gives: the new state, and the commit and Welcome to pass on. */
export interface Added {
  state: ClientState;
  commitB64: string;
  welcomeB64: string;
  ratchetTreeB64: string;
}

/**
 * Adds a device (its key package) to the chat: an MLS commit the chat's other devices apply, and a
 * Welcome the new device joins with. Made on a device already in the chat: the member's approval.
 */
export async function addDevice(state: ClientState, keyPackage: KeyPackage): Promise<Added> {
  const cs = await cipherSuite();
  const commit = await createCommit({ state, cipherSuite: cs }, {
    extraProposals: [{ proposalType: "add", add: { keyPackage } }],
  });
  if (!commit.welcome) throw new Error("no welcome for the new device");
  return {
    state: commit.newState,
    commitB64: toBase64(encodeMlsMessage(commit.commit)),
    welcomeB64: toBase64(encodeMlsMessage({ welcome: commit.welcome, wireformat: "mls_welcome", version: "mls10" })),
    ratchetTreeB64: toBase64(encodeRatchetTree(commit.newState.ratchetTree)),
  };
}

/** The devices in a chat's group as their credentials name them (`member/device`), by leaf index. */
export function groupDevices(state: ClientState): { leaf: number; identity: string }[] {
  const out: { leaf: number; identity: string }[] = [];
  state.ratchetTree.forEach((n, i) => {
    // Leaves sit at the even node indexes of the tree (RFC 9420 §4.1): leaf i at node 2i.
    if (n?.nodeType !== "leaf" || i % 2 !== 0) return;
    const cred = n.leaf.credential;
    if (cred.credentialType === "basic") out.push({ leaf: i / 2, identity: fromUtf8.decode(cred.identity) });
  });
  return out;
}

/** What removing devices from a chat gives: the new state, and the commit to pass on. */
export interface Removed {
  state: ClientState;
  commitB64: string;
}

/**
 * Removes devices (by their credential's identity) from the chat's group: an MLS commit of Remove
 * proposals, made on a device that stays. The next epoch's keys reach only the devices that stay,
 * so a removed device, whatever it kept, can read nothing sent after it (RFC 9420 §12.1.3).
 * Undefined when none of them is in the group.
 */
export async function removeDevices(state: ClientState, identities: readonly string[]): Promise<Removed | undefined> {
  const leaves = groupDevices(state).filter((d) => identities.includes(d.identity));
  if (!leaves.length) return undefined;
  const cs = await cipherSuite();
  const commit = await createCommit({ state, cipherSuite: cs }, {
    extraProposals: leaves.map((d) => ({ proposalType: "remove" as const, remove: { removed: d.leaf } })),
  });
  return { state: commit.newState, commitB64: toBase64(encodeMlsMessage(commit.commit)) };
}

/** Applies a commit another device of the chat made (a device added): the state of the next epoch. */
export async function applyCommit(state: ClientState, commitB64: string): Promise<ClientState> {
  const cs = await cipherSuite();
  const m = decodeMlsMessage(fromBase64(commitB64) ?? new Uint8Array(), 0)?.[0];
  if (!m || m.wireformat !== "mls_private_message") throw new Error("not a commit of the chat");
  const r = await processPrivateMessage(state, m.privateMessage, emptyPskIndex, cs);
  if (r.kind !== "newState") throw new Error("not a commit");
  return r.newState;
}

/** A group state as bytes for the device's store, and back. */
export function saveState(state: ClientState): Uint8Array {
  return encodeGroupState(state);
}
export function loadState(bytes: Uint8Array): ClientState {
  const decoded = decodeGroupState(bytes, 0)?.[0];
  if (!decoded) throw new Error("unreadable group state");
  return { ...decoded, clientConfig: defaultClientConfig };
}

/** A sealed message: the ciphertext and the franking commitment the server keeps beside it. */
export interface Sealed {
  state: ClientState;
  ciphertextB64: string;
  commitmentB64: string;
}

/**
 * A device's request to the chat's other devices, about one message: `unsend` (its sender asks them
 * to delete their copy), `viewed` (a view-once picture was shown once and deleted). A request: a
 * device that runs this code obeys it; nothing can force a device that does not.
 */
export interface Control {
  do: "unsend" | "viewed";
  /** The message (its id on the server) the request is about. */
  id: string;
}

const isControl = (c: unknown): c is Control =>
  !!c && typeof c === "object" && ["unsend", "viewed"].includes((c as Control).do) &&
  typeof (c as Control).id === "string";

/** What a message may carry beside its text. */
export interface Extras {
  /** A picture's reference: where its encrypted bytes are, their key, nonce and hash. */
  picture?: PictureRef;
  /** A request to the other devices (the message is then a control, with no text). */
  control?: Control;
}

/**
 * Encrypts a text (and a picture's reference, or a control) for the chat, with a fresh franking
 * key inside and its commitment outside.
 */
export async function seal(state: ClientState, text: string, extras: Extras = {}): Promise<Sealed> {
  const { picture, control } = extras;
  const cs = await cipherSuite();
  const key = newFrankingKey();
  const commitment = await frankingCommitment(key, frankedText(text, picture));
  const body = utf8.encode(
    JSON.stringify({
      t: text,
      k: toBase64(key),
      ...(picture ? { p: picture } : {}),
      ...(control ? { c: control } : {}),
    }),
  );
  const r = await createApplicationMessage(state, body, cs);
  const bytes = encodeMlsMessage({
    privateMessage: r.privateMessage,
    wireformat: "mls_private_message",
    version: "mls10",
  });
  return { state: r.newState, ciphertextB64: toBase64(bytes), commitmentB64: toBase64(commitment) };
}

/** An opened message: its text, its picture's reference if it has one, and its franking key (kept for a report). */
export interface Opened {
  state: ClientState;
  text: string;
  picture?: PictureRef;
  control?: Control;
  frankingKeyB64: string;
}

/**
 * Decrypts a message of the chat. Its commitment must match the text and key inside: a message
 * whose commitment would not verify in a report is refused here too (no text the member could
 * not report).
 */
export async function open(state: ClientState, ciphertextB64: string, commitmentB64: string): Promise<Opened> {
  const cs = await cipherSuite();
  const m = decodeMlsMessage(fromBase64(ciphertextB64) ?? new Uint8Array(), 0)?.[0];
  if (!m || m.wireformat !== "mls_private_message") throw new Error("not a secret message");
  const r = await processPrivateMessage(state, m.privateMessage, emptyPskIndex, cs);
  if (r.kind !== "applicationMessage") return Promise.reject(new Error("not an application message"));
  const body = JSON.parse(fromUtf8.decode(r.message)) as { t: unknown; k: unknown; p?: unknown; c?: unknown };
  const key = typeof body.k === "string" ? fromBase64(body.k) : undefined;
  const commitment = fromBase64(commitmentB64);
  const picture = body.p === undefined ? undefined : isPictureRef(body.p) ? body.p : null;
  const control = body.c === undefined ? undefined : isControl(body.c) ? body.c : null;
  if (
    typeof body.t !== "string" || !key || !commitment || picture === null || control === null ||
    !(await frankingVerifies(key, frankedText(body.t, picture), commitment))
  ) {
    throw new Error("the message's commitment does not match");
  }
  return {
    state: r.newState,
    text: body.t,
    ...(picture ? { picture } : {}),
    ...(control ? { control } : {}),
    frankingKeyB64: body.k as string,
  };
}

/**
 * The safety code both members compare in person: SHA-256 over the chat's devices' credentials
 * and signing keys (sorted, so both sides compute the same), as four groups of five digits. It
 * changes when a device of the chat changes.
 */
export async function safetyCode(state: ClientState): Promise<string> {
  const leaves = state.ratchetTree
    .filter((n) => n?.nodeType === "leaf")
    .map((n) => n!.nodeType === "leaf" ? n!.leaf : undefined)
    .filter((l) => l !== undefined)
    .map((l) => {
      const id = l.credential.credentialType === "basic" ? fromUtf8.decode(l.credential.identity) : "";
      return `${id}:${hex(l.signaturePublicKey)}`;
    })
    .sort();
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", utf8.encode(leaves.join("\n"))));
  const groups: string[] = [];
  for (let i = 0; i < 4; i++) {
    const n = ((digest[i * 4] << 24) | (digest[i * 4 + 1] << 16) | (digest[i * 4 + 2] << 8) | digest[i * 4 + 3]) >>> 0;
    groups.push(String(n % 100000).padStart(5, "0"));
  }
  return groups.join(" ");
}
