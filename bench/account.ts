/**
 * A member's data at size: the time to export and to delete a member with 50 pictures
 * and 2,000 messages, and what is left after the deletion, beside the same for a new member with
 * nothing (the floor), in the same run. On a local KV file; the picture sizes are made by the
 * picture jobs first (not timed).
 *
 * A third row does the same in a store that also holds a community of `--community` members with
 * what members leave behind (notifications, notes, likes, blocks, votes, picture grants), written
 * straight to KV: the deletion scans some whole families (notes about the member, others'
 * notifications that name them, votes), so its time grows with the store, not only with the member.
 * The time of each step is printed for that row.
 *
 * Run: `deno run -A bench/account.ts [--pictures 50] [--messages 2000] [--community 5000]`.
 */

import sharp from "sharp";
import { zipSync } from "fflate";
import { closeKv, kv, openKv } from "../kv/db.ts";
import { createAccount } from "../kv/accounts.ts";
import { addPicture } from "../kv/pictures.ts";
import { prepareUpload } from "../images/pipeline.ts";
import { sendPrivateMessage } from "../kv/messages.ts";
import { putProfileLike } from "../kv/likes.ts";
import { collectMemberData } from "../kv/memberData.ts";
import { deleteMemberStep, startDeletion } from "../kv/memberDeletion.ts";
import { loadMaster, loadVariant } from "../workers/pictures.ts";
import { getAccount } from "../kv/accounts.ts";
import { runDueJobs } from "../workers/jobs.ts";
import { handlers } from "../workers/run.ts";
import { shiftClock } from "../kv/clock.ts";
import { keys } from "../kv/keys.ts";
import { newId } from "../kv/ids.ts";
import { arg } from "./kit.ts";

Deno.env.set("DEV_OUTBOX_PRINT", "0");

const PICTURES = Number(arg("pictures", "50"));
const MESSAGES = Number(arg("messages", "2000"));
const COMMUNITY = Number(arg("community", "5000"));

/** What `n` members leave behind, written straight to KV in atomics of 100: returns how many entries. */
async function fillCommunity(n: number): Promise<number> {
  let written = 0;
  const ids = Array.from({ length: n }, () => newId());
  let op = kv().atomic(), inOp = 0;
  const set = async (key: Deno.KvKey, value: unknown) => {
    op.set(key, value);
    written++;
    if (++inOp === 100) {
      await op.commit();
      op = kv().atomic();
      inOp = 0;
    }
  };
  const t = Date.now();
  for (const [i, id] of ids.entries()) {
    const other = (k: number) => ids[(i + 1 + k * 7) % n];
    for (let k = 0; k < 10; k++) {
      await set(keys.notification(id, newId()), {
        id: newId(),
        bodyText: "Somebody liked your profile",
        url: `/profile/${other(k)}`,
        tsCreated: t,
      });
    }
    for (let k = 0; k < 5; k++) await set(keys.notificationOnce(id, "like", other(k)), t);
    for (let k = 0; k < 3; k++) {
      await set(keys.profileNote(id, other(k)), {
        authorProfileId: id,
        aboutProfileId: other(k),
        bodyText: "met at the park, likes hiking",
        privateTags: ["park"],
        tsUpdated: t,
      });
    }
    await set(keys.block(id, other(9)), t);
    await set(keys.blockedBy(other(9), id), t);
    for (let k = 0; k < 2; k++) await set(keys.gptVote(other(k), id), { verdict: "HUMAN", ts: t });
    for (let k = 0; k < 2; k++) await set(keys.picGrant(newId(), other(k)), t);
  }
  await op.commit();
  return written;
}

const dir = await Deno.makeTempDir({ prefix: "account-bench-" });
await openKv(`${dir}/app.kv`);
const rows: string[] = [];
try {
  // Others to talk to, and some background members (the deletion's scans read past them).
  const others = [];
  for (let i = 0; i < 20; i++) others.push((await createAccount({ email: `other-${i}@bench.invalid` }))!);

  const steps: string[] = [];
  for (
    const [label, pics, msgs, community] of [
      ["a new member, nothing stored", 0, 0, 0],
      ["the member", PICTURES, MESSAGES, 0],
      ["the member, among a community", PICTURES, MESSAGES, COMMUNITY],
    ] as const
  ) {
    let filled = 0;
    if (community) filled = await fillCommunity(community);
    const me = (await createAccount({ email: `me-${pics}@bench.invalid`, name: "Me" }))!;
    const pid = me.defaultProfileId;
    for (let i = 0; i < pics; i++) {
      // A phone photo's worth of detail (noise), so the sizes weigh what real pictures do.
      const img = await sharp({
        create: {
          width: 1200,
          height: 1500,
          channels: 3,
          background: { r: 128, g: 128, b: 128 },
          noise: { type: "gaussian", mean: 120 + i, sigma: 40 },
        },
      }).jpeg({ quality: 85 }).toBuffer();
      await addPicture(pid, await prepareUpload(new Uint8Array(img)));
    }
    while ((await runDueJobs(handlers)) > 0) { /* make every stored size */ }
    for (let i = 0; i < msgs; i++) {
      const other = others[i % others.length].defaultProfileId;
      if (i % 2) await sendPrivateMessage(pid, other, `message ${i} from me`, []);
      else await sendPrivateMessage(other, pid, `message ${i} to me`, []);
    }
    for (const o of others) await putProfileLike(pid, o.defaultProfileId, "LIKE");

    let t = performance.now();
    const data = (await collectMemberData(me.id, { loadMaster, loadVariant }))!;
    const entries: Record<string, Uint8Array> = { "data.json": new TextEncoder().encode(JSON.stringify(data.json)) };
    for (const f of data.files) entries[f.path] = f.bytes;
    const zip = zipSync(entries, { level: 6 });
    const exportMs = performance.now() - t;

    t = performance.now();
    await startDeletion((await getAccount(me.id))!);
    let ran = 0;
    for (;;) {
      const s0 = performance.now();
      const step = await deleteMemberStep(me.id);
      if (step === null) break;
      if (community) steps.push(`${step} ${(performance.now() - s0).toFixed(0)} ms`);
      if (++ran === 10) shiftClock(20 * 60_000); // the last step waits for the logs' lifetime
    }
    while ((await runDueJobs(handlers)) > 0) { /* the pictures' blobs */ }
    const deleteMs = performance.now() - t;

    let left = 0;
    for await (const e of kv().list({ prefix: [] })) {
      const text = JSON.stringify(e.key) +
        (e.value instanceof Uint8Array
          ? ""
          : JSON.stringify(e.value, (_k, v) => typeof v === "bigint" ? String(v) : v));
      if ((text.includes(me.id) || text.includes(pid)) && e.key[0] !== "audit_log") left++;
    }
    const where = community ? `${community.toLocaleString("en")} others (${filled.toLocaleString("en")} entries)` : "—";
    rows.push(
      `| ${label} | ${where} | ${pics} | ${msgs} | ${(exportMs / 1000).toFixed(2)} s (${
        (zip.byteLength / 2 ** 20).toFixed(1)
      } MiB, ${data.files.length} files) | ${(deleteMs / 1000).toFixed(2)} s | ${left} |`,
    );
  }
  console.log(
    "| member | also in the store | pictures | messages | export (build the ZIP) | delete (every step) | keys left with their ids |",
  );
  console.log("|---|---|---|---|---|---|---|");
  for (const r of rows) console.log(r);
  console.log(`\ndeletion steps among the community: ${steps.join(", ")}`);
  const [l1, l5, l15] = Deno.loadavg();
  console.log(`\nlocal KV file; ${navigator.hardwareConcurrency} cores; load average ${l1} ${l5} ${l15}`);
} finally {
  closeKv();
  await Deno.remove(dir, { recursive: true });
}
