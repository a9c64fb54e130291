import assert from "node:assert/strict";
import { frankedText, isPictureRef, openPicture, type PictureRef, sealPicture } from "./secretPictures.ts";

const ref = (sealed: Awaited<ReturnType<typeof sealPicture>>): PictureRef => ({
  id: "p1",
  key: sealed.key,
  iv: sealed.iv,
  sha256: sealed.sha256,
  type: "image/jpeg",
  width: 4,
  height: 3,
});

Deno.test("secret pictures: sealed under a fresh key each time, opened only with it, refused when altered", async () => {
  const plain = new TextEncoder().encode("pixels of the beach at night");
  const one = await sealPicture(plain), two = await sealPicture(plain);
  assert.notEqual(one.key, two.key, "a fresh key per picture");
  assert.notDeepEqual(one.bytes, two.bytes);
  assert.equal(one.bytes.length, plain.length + 16, "AES-GCM: the bytes and a 16-byte tag");
  assert.ok(!new TextDecoder().decode(one.bytes).includes("beach"));
  assert.deepEqual(await openPicture(one.bytes, ref(one)), plain);
  const altered = one.bytes.slice();
  altered[3] ^= 0x80;
  await assert.rejects(openPicture(altered, ref(one)), /does not match/);
  // The right bytes with another picture's key: the hash matches, the decryption fails.
  await assert.rejects(openPicture(one.bytes, { ...ref(one), key: two.key }));
  assert.ok(isPictureRef(ref(one)));
  assert.ok(!isPictureRef({ ...ref(one), type: "text/html" }));
  assert.ok(!isPictureRef({ ...ref(one), sha256: "zz" }));
  assert.equal(frankedText("hi", ref(one)), `hi\n[picture sha256:${one.sha256}]`);
  assert.equal(frankedText("hi"), "hi");
});
