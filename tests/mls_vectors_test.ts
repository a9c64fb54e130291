/**
 * The MLS library behind secret chats (ts-mls, RFC 9420) against the interoperability test vectors
 * published by the MLS working group (github.com/mlswg/mls-implementations, as shipped in the ts-mls
 * repository at v1.6.2; copied under tests/fixtures/mls/). Run for the cipher suites this app can load:
 * 1 (X25519, AES-128-GCM, Ed25519: the one secret chats use), 2 (P-256), 5 (P-521) and 7 (P-384).
 * A library update that breaks the protocol's arithmetic fails here before it reaches a member.
 */

import assert from "node:assert/strict";
import { type CiphersuiteId, getCiphersuiteFromId, getCiphersuiteNameFromId } from "ts-mls/crypto/ciphersuite.js";
import type { CiphersuiteImpl } from "ts-mls/crypto/ciphersuite.js";
import { getCiphersuiteImpl } from "ts-mls/crypto/getCiphersuiteImpl.js";
import { deriveSecret, deriveTreeSecret, expandWithLabel } from "ts-mls/crypto/kdf.js";
import { refhash } from "ts-mls/crypto/hash.js";
import { signWithLabel, verifyWithLabel } from "ts-mls/crypto/signature.js";
import { decryptWithLabel, encryptWithLabel } from "ts-mls/crypto/hpke.js";
import { left, nodeWidth, parent, right, root, sibling, toNodeIndex } from "ts-mls/treemath.js";
import { encodeGroupContext, type GroupContext } from "ts-mls/groupContext.js";
import { initializeEpoch, mlsExporter } from "ts-mls/keySchedule.js";
import { decodeMlsMessage } from "ts-mls/message.js";
import { makeKeyPackageRef } from "ts-mls/keyPackage.js";
import { decryptGroupInfo, decryptGroupSecrets } from "ts-mls/welcome.js";
import { verifyGroupInfoConfirmationTag, verifyGroupInfoSignature } from "ts-mls/groupInfo.js";
import { createSecretTree, deriveKey, deriveNonce, ratchetUntil } from "ts-mls/secretTree.js";
import { expandSenderDataKey, expandSenderDataNonce } from "ts-mls/sender.js";
import { leafToNodeIndex, toLeafIndex } from "ts-mls/treemath.js";
import { defaultKeyRetentionConfig } from "ts-mls/keyRetentionConfig.js";

/** The suites whose dependencies the app installs (@noble/curves, WebCrypto through @hpke/core). */
const SUITES = new Set([1, 2, 5, 7]);

/** One vector as the JSON holds it: field names as the published files spell them. */
// deno-lint-ignore no-explicit-any
type Vector = { cipher_suite: number } & Record<string, any>;

const fixture = (name: string): Vector[] =>
  JSON.parse(Deno.readTextFileSync(new URL(`./fixtures/mls/${name}.json`, import.meta.url)));

const hex = (s: string): Uint8Array => {
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.slice(i * 2, i * 2 + 2), 16);
  return out;
};
const toHex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

const impls = new Map<number, CiphersuiteImpl>();
async function impl(id: number): Promise<CiphersuiteImpl> {
  let found = impls.get(id);
  if (!found) {
    found = await getCiphersuiteImpl(getCiphersuiteFromId(id as CiphersuiteId));
    impls.set(id, found);
  }
  return found;
}

/** The vectors of one file for the suites above; fails when none are left (a renamed field would skip all). */
function forSuites(all: Vector[]): Vector[] {
  const chosen = all.filter((v) => SUITES.has(v.cipher_suite));
  assert.ok(chosen.some((v) => v.cipher_suite === 1), "the vectors include cipher suite 1");
  return chosen;
}

Deno.test("MLS vectors: crypto basics (RefHash, ExpandWithLabel, DeriveSecret, DeriveTreeSecret, signatures, HPKE)", async () => {
  const vectors = forSuites(fixture("crypto-basics"));
  for (const v of vectors) {
    const cs = await impl(v.cipher_suite);
    const at = `suite ${v.cipher_suite}`;
    assert.equal(toHex(await refhash(v.ref_hash.label, hex(v.ref_hash.value), cs.hash)), v.ref_hash.out, at);
    const e = v.expand_with_label;
    assert.equal(toHex(await expandWithLabel(hex(e.secret), e.label, hex(e.context), e.length, cs.kdf)), e.out, at);
    const d = v.derive_secret;
    assert.equal(toHex(await deriveSecret(hex(d.secret), d.label, cs.kdf)), d.out, at);
    const t = v.derive_tree_secret;
    assert.equal(
      toHex(await deriveTreeSecret(hex(t.secret), t.label, t.generation, cs.kdf.size, cs.kdf)),
      t.out,
      at,
    );
    const s = v.sign_with_label;
    assert.ok(await verifyWithLabel(hex(s.pub), s.label, hex(s.content), hex(s.signature), cs.signature), at);
    const ours = await signWithLabel(hex(s.priv), s.label, hex(s.content), cs.signature);
    assert.ok(await verifyWithLabel(hex(s.pub), s.label, hex(s.content), ours, cs.signature), at);
    const h = v.encrypt_with_label;
    const priv = await cs.hpke.importPrivateKey(hex(h.priv));
    const pub = await cs.hpke.importPublicKey(hex(h.pub));
    const opened = await decryptWithLabel(priv, h.label, hex(h.context), hex(h.kem_output), hex(h.ciphertext), cs.hpke);
    assert.equal(toHex(new Uint8Array(opened)), h.plaintext, at);
    const sealed = await encryptWithLabel(pub, h.label, hex(h.context), hex(h.plaintext), cs.hpke);
    const reopened = await decryptWithLabel(priv, h.label, hex(h.context), sealed.enc, sealed.ct, cs.hpke);
    assert.equal(toHex(new Uint8Array(reopened)), h.plaintext, at);
  }
});

Deno.test("MLS vectors: tree math", () => {
  const vectors = fixture("tree-math") as unknown as {
    n_leaves: number;
    n_nodes: number;
    root: number;
    left: (number | null)[];
    right: (number | null)[];
    parent: (number | null)[];
    sibling: (number | null)[];
  }[];
  assert.ok(vectors.length > 0);
  for (const t of vectors) {
    assert.equal(nodeWidth(t.n_leaves), t.n_nodes);
    assert.equal(root(t.n_leaves), t.root);
    const check = (expected: (number | null)[], fn: (i: number) => number) => {
      for (const [i, want] of expected.entries()) {
        if (want === null) assert.throws(() => fn(i));
        else assert.equal(fn(i), want, `node ${i} of ${t.n_leaves} leaves`);
      }
    };
    check(t.left, (i) => left(toNodeIndex(i)));
    check(t.right, (i) => right(toNodeIndex(i)));
    check(t.parent, (i) => parent(toNodeIndex(i), t.n_leaves));
    check(t.sibling, (i) => sibling(toNodeIndex(i), t.n_leaves));
  }
});

Deno.test("MLS vectors: key schedule, epoch after epoch", async () => {
  const vectors = forSuites(fixture("key-schedule"));
  for (const v of vectors) {
    const cs = await impl(v.cipher_suite);
    let initSecret = hex(v.initial_init_secret);
    for (const [index, epoch] of (v.epochs as Record<string, string & { label: string }>[]).entries()) {
      const gc: GroupContext = {
        version: "mls10",
        cipherSuite: getCiphersuiteNameFromId(v.cipher_suite as CiphersuiteId),
        groupId: hex(v.group_id),
        epoch: BigInt(index),
        treeHash: hex(epoch.tree_hash),
        confirmedTranscriptHash: hex(epoch.confirmed_transcript_hash),
        extensions: [],
      };
      assert.equal(toHex(encodeGroupContext(gc)), epoch.group_context);
      const got = await initializeEpoch(initSecret, hex(epoch.commit_secret), gc, hex(epoch.psk_secret), cs.kdf);
      assert.equal(toHex(got.joinerSecret), epoch.joiner_secret);
      assert.equal(toHex(got.welcomeSecret), epoch.welcome_secret);
      assert.equal(toHex(got.encryptionSecret), epoch.encryption_secret);
      const ks = got.keySchedule;
      assert.equal(toHex(ks.initSecret), epoch.init_secret);
      assert.equal(toHex(ks.senderDataSecret), epoch.sender_data_secret);
      assert.equal(toHex(ks.exporterSecret), epoch.exporter_secret);
      assert.equal(toHex(ks.externalSecret), epoch.external_secret);
      assert.equal(toHex(ks.confirmationKey), epoch.confirmation_key);
      assert.equal(toHex(ks.membershipKey), epoch.membership_key);
      assert.equal(toHex(ks.resumptionPsk), epoch.resumption_psk);
      assert.equal(toHex(ks.epochAuthenticator), epoch.epoch_authenticator);
      const { publicKey } = await cs.hpke.deriveKeyPair(hex(epoch.external_secret));
      assert.equal(toHex(await cs.hpke.exportPublicKey(publicKey)), epoch.external_pub);
      const ex = epoch.exporter as unknown as { label: string; context: string; length: number; secret: string };
      const exported = await mlsExporter(ks.exporterSecret, ex.label, hex(ex.context), ex.length, cs);
      assert.equal(toHex(exported), ex.secret);
      initSecret = ks.initSecret;
    }
  }
});

Deno.test("MLS vectors: secret tree (sender data, handshake and application ratchets)", async () => {
  const vectors = forSuites(fixture("secret-tree"));
  for (const v of vectors) {
    const cs = await impl(v.cipher_suite);
    const sd = v.sender_data;
    assert.equal(toHex(await expandSenderDataKey(cs, hex(sd.sender_data_secret), hex(sd.ciphertext))), sd.key);
    assert.equal(toHex(await expandSenderDataNonce(cs, hex(sd.sender_data_secret), hex(sd.ciphertext))), sd.nonce);
    const leaves = v.leaves as {
      generation: number;
      handshake_key: string;
      handshake_nonce: string;
      application_key: string;
      application_nonce: string;
    }[][];
    const tree = await createSecretTree(leaves.length, hex(v.encryption_secret), cs.kdf);
    for (const [index, leaf] of leaves.entries()) {
      const node = tree[leafToNodeIndex(toLeafIndex(index))]!;
      for (const gen of leaf) {
        const [hs] = await ratchetUntil(node.handshake, gen.generation, defaultKeyRetentionConfig, cs.kdf);
        assert.equal(toHex(await deriveKey(hs.secret, hs.generation, cs)), gen.handshake_key);
        assert.equal(toHex(await deriveNonce(hs.secret, hs.generation, cs)), gen.handshake_nonce);
        const [app] = await ratchetUntil(node.application, gen.generation, defaultKeyRetentionConfig, cs.kdf);
        assert.equal(toHex(await deriveKey(app.secret, app.generation, cs)), gen.application_key);
        assert.equal(toHex(await deriveNonce(app.secret, app.generation, cs)), gen.application_nonce);
      }
    }
  }
});

Deno.test("MLS vectors: a Welcome opens with the joiner's init key and its group info verifies", async () => {
  const vectors = forSuites(fixture("welcome"));
  for (const v of vectors) {
    const cs = await impl(v.cipher_suite);
    const w = decodeMlsMessage(hex(v.welcome), 0)?.[0];
    const kp = decodeMlsMessage(hex(v.key_package), 0)?.[0];
    assert.ok(w?.wireformat === "mls_welcome" && kp?.wireformat === "mls_key_package");
    const ref = await makeKeyPackageRef(kp.keyPackage, cs.hash);
    const priv = await cs.hpke.importPrivateKey(hex(v.init_priv));
    const secrets = await decryptGroupSecrets(priv, ref, w.welcome, cs.hpke);
    assert.ok(secrets, "group secrets open");
    const psk = new Uint8Array(cs.kdf.size);
    const info = await decryptGroupInfo(w.welcome, secrets.joinerSecret, psk, cs);
    assert.ok(info, "group info opens");
    assert.ok(await verifyGroupInfoConfirmationTag(info, secrets.joinerSecret, psk, cs));
    assert.ok(await verifyGroupInfoSignature(info, hex(v.signer_pub), cs.signature));
  }
});
