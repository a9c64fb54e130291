import assert from "node:assert/strict";
import { closeKv, openKv } from "./db.ts";
import { newProfile } from "./profiles.ts";
import { addPicture, canViewPicture, grantPictureAccess, storedSize, storedSizes, variantBlobId } from "./pictures.ts";
import sharp from "sharp";
import { createAccount } from "./accounts.ts";
import { getBlobMeta } from "./blobs.ts";
import { normalizeUpload } from "../images/pipeline.ts";
import { renderGeneration } from "../workers/pictures.ts";
import { picRecord } from "../tests/fixtures/pictures.ts";
import type { Profile } from "../domain/shapes/profiles.ts";

const pic = picRecord;

Deno.test("pictures - sizes at or above the master's width share one stored size", () => {
  const p = pic({ width: 800 });
  assert.deepEqual([256, 512, 1024, 2048].map((s) => storedSize(p, s as 256)), [256, 512, 1024, 1024]);
  assert.deepEqual(storedSizes(p), [256, 512, 1024]);
  assert.deepEqual(storedSizes(pic({ width: 2048 })), [256, 512, 1024, 2048]);
  assert.deepEqual(storedSizes(pic({ width: 100 })), [256]);
});

Deno.test("pictures - who may see a picture: owner, anyone when public, a private one only with a grant", async () => {
  await openKv(":memory:");
  try {
    const pub = pic();
    const priv = pic();
    const owner: Profile = { ...newProfile("owner", "acct", "Owner", ["USER"]), profilePicIds: [pub.id] };
    owner.profilePicIdsPrivate = [priv.id];
    const stray = pic();
    assert.equal(await canViewPicture(pub, owner, "someone"), true);
    assert.equal(await canViewPicture(priv, owner, "owner"), true);
    assert.equal(await canViewPicture(priv, owner, "someone"), false);
    assert.equal(await canViewPicture(stray, owner, "someone"), false, "in no list: owner only");
    await grantPictureAccess(priv.id, "someone");
    assert.equal(await canViewPicture(priv, owner, "someone"), true);
    assert.equal(await canViewPicture(priv, owner, "else"), false);
  } finally {
    closeKv();
  }
});

Deno.test("pictures - two runs of the variants job at once both succeed and store each size once", async () => {
  await openKv(":memory:");
  try {
    const png = await sharp({ create: { width: 600, height: 750, channels: 3, background: "#1e88e5" } }).png()
      .toBuffer();
    const account = (await createAccount({ email: "twice@example.com" }))!;
    const added = await addPicture(account.defaultProfileId, await normalizeUpload(new Uint8Array(png)));
    assert.ok(added.ok);
    const { pic } = added;
    const runs = await Promise.all([renderGeneration(pic.id, pic.gen), renderGeneration(pic.id, pic.gen)]);
    assert.ok(runs[0] + runs[1] >= 3, `rendered ${runs}`);
    for (const size of storedSizes(pic)) {
      assert.ok(await getBlobMeta(variantBlobId(pic.id, pic.gen, { size, blur: false })), `size ${size}`);
    }
  } finally {
    closeKv();
  }
});
