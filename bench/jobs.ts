/**
 * A login mail's queue wait while thousands of picture jobs wait: the real job loop
 * (workers/jobs.ts, one dispatcher, leases in a local KV file) with 2,000 picture jobs queued,
 * each doing a picture's real CPU work (decode a 1600×2000 WebP master, render every served size
 * with sharp; the KV blob writes of `renderGeneration` are left out), and a login mail enqueued
 * every `--every` ms meanwhile. The wait is from the mail's enqueue to its handler's start.
 *
 * Peer, in the same run: one queue without bands (as before), where each mail waits for every
 * picture ahead of it: the pictures still queued when the mail came, at the picture rate measured
 * in this run (derived, not waited out: 2,000 pictures take minutes).
 *
 * Run: `deno run -A bench/jobs.ts [--pictures 2000] [--mails 40] [--every 250]`.
 */

import sharp from "sharp";
import { arg, pct } from "./kit.ts";
import { closeKv, kv, openKv } from "../kv/db.ts";
import { enqueueJob, enqueueJobNow } from "../kv/jobs.ts";
import { type Handlers, startWorker } from "../workers/jobs.ts";
import { decodeMaster, normalizeUpload, PIC_SIZES, renderVariant } from "../images/pipeline.ts";

const PICTURES = Number(arg("pictures", "2000"));
const MAILS = Number(arg("mails", "40"));
const EVERY_MS = Number(arg("every", "250"));

const source = await sharp({
  create: {
    width: 1600,
    height: 2000,
    channels: 3,
    background: "#808080",
    noise: { type: "gaussian", mean: 128, sigma: 40 },
  },
}).blur(1.2).jpeg({ quality: 85 }).toBuffer();
const master = await normalizeUpload(new Uint8Array(source));

const dir = await Deno.makeTempDir({ prefix: "bench-jobs-" });
await openKv(`${dir}/jobs.kv`);
try {
  for (let i = 0; i < PICTURES; i += 100) {
    const op = kv().atomic();
    for (let j = i; j < Math.min(PICTURES, i + 100); j++) {
      enqueueJob(op, { type: "picture-variants", picId: `bench${j}`, gen: "g1" });
    }
    await op.commit();
  }
  let pictures = 0;
  const waits: number[] = [];
  const aheadAtEnqueue: number[] = [];
  const handlers: Handlers = {
    "picture-variants": async () => {
      const decoded = await decodeMaster(master.bytes);
      for (const size of PIC_SIZES) await renderVariant(decoded, size);
      pictures++;
    },
    mail: (_job, rec) => {
      waits.push(Date.now() - rec.tsCreated);
      return Promise.resolve();
    },
  };
  const t0 = performance.now();
  const worker = startWorker(handlers);
  for (let m = 0; m < MAILS; m++) {
    await new Promise((r) => setTimeout(r, EVERY_MS));
    aheadAtEnqueue.push(PICTURES - pictures);
    await enqueueJobNow({ type: "mail", template: "login-link", accountId: `bench-${m}` });
  }
  while (waits.length < MAILS) await new Promise((r) => setTimeout(r, 20));
  const seconds = (performance.now() - t0) / 1000;
  await worker.stop();
  const rate = pictures / seconds;
  const oneQueue = aheadAtEnqueue.map((n) => n / rate * 1000);
  const fmt = (ms: number) => ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(0)} ms`;
  console.log(
    `${PICTURES} picture jobs queued; ${pictures} rendered in ${seconds.toFixed(1)} s ` +
      `(${
        rate.toFixed(2)
      }/s, 3 at once: one slot is kept from bulk work); ${MAILS} login mails, one every ${EVERY_MS} ms; load ${
        Deno.loadavg()[0].toFixed(2)
      }`,
  );
  console.log("\n| login mail queue wait | p50 | p99 | max |");
  console.log("| --- | --- | --- | --- |");
  console.log(
    `| bands (this code) | ${fmt(pct(waits, 0.5))} | ${fmt(pct(waits, 0.99))} | ${fmt(Math.max(...waits))} |`,
  );
  console.log(
    `| one queue (before; derived) | ${fmt(pct(oneQueue, 0.5))} | ${fmt(pct(oneQueue, 0.99))} | ${
      fmt(Math.max(...oneQueue))
    } |`,
  );
} finally {
  closeKv();
  await Deno.remove(dir, { recursive: true });
}
