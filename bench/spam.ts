/**
 * The spam check's cost per message: sending a private message as the app stores it
 * (`sendPrivateMessage`), beside the same with the first-message check before it (`isEarlyMessage`
 * then `checkFirstMessage`: the text's signs and the same-text count), and an established
 * conversation's send, where only `isEarlyMessage` runs. On a local KV file, in the same run.
 *
 * Run: `deno run -A bench/spam.ts [--messages 2000]`. Uses a temp KV file (deleted after).
 */

import { closeKv, openKv } from "../kv/db.ts";
import { sendPrivateMessage } from "../kv/messages.ts";
import { checkFirstMessage, isEarlyMessage } from "../kv/spam.ts";
import { newId } from "../kv/ids.ts";
import { arg, pct } from "./kit.ts";

const N = Number(arg("messages", "2000"));
const TEXTS = ["Hey, how is your evening going?", "Nice pics! Where do you like to go out?", "Hi there :)"];

const dir = await Deno.makeTempDir({ prefix: "spam-bench-" });
await openKv(`${dir}/spam.kv`);
try {
  const rows: { name: string; times: number[] }[] = [];
  const run = async (name: string, send: (i: number) => Promise<unknown>) => {
    for (let i = 0; i < 50; i++) await send(-1 - i); // warm up
    const times: number[] = [];
    for (let i = 0; i < N; i++) {
      const t0 = performance.now();
      await send(i);
      times.push(performance.now() - t0);
    }
    rows.push({ name, times });
  };
  // Each message starts a new conversation (the case the check runs for).
  const sender = newId();
  await run("send only (the old way)", (i) => sendPrivateMessage(sender, `a${i}`, TEXTS[i & 1 ? 1 : 0], []));
  const checked = newId();
  await run("first message: check + send", async (i) => {
    const to = `b${i}`, text = `${TEXTS[i % 3]} ${i}`;
    const held = await isEarlyMessage(checked, to) && (await checkFirstMessage(checked, to, text)).signs.length > 0;
    return sendPrivateMessage(checked, to, text, [], { held });
  });
  // An established conversation: the other replied, so only the early test runs.
  const a = newId(), b = newId();
  await sendPrivateMessage(b, a, "hello", []);
  await run("established conversation: early test + send", async (i) => {
    const held = await isEarlyMessage(a, b) && (await checkFirstMessage(a, b, TEXTS[i % 3])).signs.length > 0;
    return sendPrivateMessage(a, b, TEXTS[i % 3], [], { held });
  });

  const base = pct(rows[0].times, 0.5);
  console.log(`| how | p50 | p99 | p50 cost of the check |`);
  console.log(`|---|---|---|---|`);
  for (const r of rows) {
    const p50 = pct(r.times, 0.5);
    console.log(
      `| ${r.name} | ${p50.toFixed(3)} ms | ${pct(r.times, 0.99).toFixed(3)} ms | ${
        r === rows[0] ? "—" : `+${(p50 - base).toFixed(3)} ms`
      } |`,
    );
  }
  const [l1, l5, l15] = Deno.loadavg();
  console.log(`\n${N} messages each, local KV file; load average ${l1} ${l5} ${l15}`);
} finally {
  closeKv();
  await Deno.remove(dir, { recursive: true });
}
