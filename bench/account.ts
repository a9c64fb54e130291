/**
 * A member's data at size (issue 10): the time to export and to delete a member with 50 pictures
 * and 2,000 messages, and what is left after the deletion, beside the same for a new member with
 * nothing (the floor), in the same run. On a local KV file; the picture sizes are made by the
 * picture jobs first (not timed).
 *
 * Run: `deno run -A bench/account.ts [--pictures 50] [--messages 2000]`.
 */

import sharp from "sharp";
import { zipSync } from "fflate";
import { closeKv, kv, openKv } from "../kv/db.ts";
import { createAccount } from "../kv/accounts.ts";
import { addPicture } from "../kv/pictures.ts";
import { prepareUpload } from "../images/pipeline.ts";
import { sendPrivateMessage } from "../kv/messages.ts";
import { putProfileLike } from "../kv/likes.ts";
import { collectMemberData, deleteMemberStep, startDeletion } from "../kv/memberData.ts";
import { getAccount } from "../kv/accounts.ts";
import { runDueJobs } from "../workers/jobs.ts";
import { handlers } from "../workers/run.ts";
import { shiftClock } from "../kv/clock.ts";

Deno.env.set("DEV_OUTBOX_PRINT", "0");

function arg(name: string, fallback: string): string {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 && Deno.args[i + 1] ? Deno.args[i + 1] : fallback;
}
const PICTURES = Number(arg("pictures", "50"));
const MESSAGES = Number(arg("messages", "2000"));

const dir = await Deno.makeTempDir({ prefix: "account-bench-" });
await openKv(`${dir}/app.kv`);
const rows: string[] = [];
try {
  // Others to talk to, and some background members (the deletion's scans read past them).
  const others = [];
  for (let i = 0; i < 20; i++) others.push((await createAccount({ email: `other-${i}@bench.invalid` }))!);

  for (
    const [label, pics, msgs] of [["a new member, nothing stored", 0, 0], ["the member", PICTURES, MESSAGES]] as const
  ) {
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
    const data = (await collectMemberData(me.id))!;
    const entries: Record<string, Uint8Array> = { "data.json": new TextEncoder().encode(JSON.stringify(data.json)) };
    for (const f of data.files) entries[f.path] = f.bytes;
    const zip = zipSync(entries, { level: 6 });
    const exportMs = performance.now() - t;

    t = performance.now();
    await startDeletion((await getAccount(me.id))!);
    let steps = 0;
    for (;;) {
      if ((await deleteMemberStep(me.id)) === null) break;
      steps++;
      if (steps === 10) shiftClock(20 * 60_000); // the last step waits for the logs' lifetime
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
    rows.push(
      `| ${label} | ${pics} | ${msgs} | ${(exportMs / 1000).toFixed(2)} s (${
        (zip.byteLength / 2 ** 20).toFixed(1)
      } MiB, ${data.files.length} files) | ${(deleteMs / 1000).toFixed(2)} s | ${left} |`,
    );
  }
  console.log(
    "| member | pictures | messages | export (build the ZIP) | delete (every step) | keys left with their ids |",
  );
  console.log("|---|---|---|---|---|---|");
  for (const r of rows) console.log(r);
  const [l1, l5, l15] = Deno.loadavg();
  console.log(`\nlocal KV file; ${navigator.hardwareConcurrency} cores; load average ${l1} ${l5} ${l15}`);
} finally {
  closeKv();
  await Deno.remove(dir, { recursive: true });
}
