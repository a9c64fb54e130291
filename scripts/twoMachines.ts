/**
 * `deno task two-machines [--rounds N] [--rtt-ms 5]`: the app on two machines behind one nginx,
 * sharing one remote KV, checked through the proxy with real members. As root it makes two Linux
 * network namespaces (each its own veth link and address: machine A at 10.77.N.2, B at 10.77.N.6,
 * the host at 10.77.N.1 and .5), runs one app instance in each (`ip netns exec`), a KV Connect
 * test server on the host (scripts/kvConnect.ts, `--rtt-ms` added to every answer) that both use
 * through `KV_URL`, and one nginx on the host in front of both with the block docs/operations.md
 * documents (its `location /` as written, its upstream a group of the two machines, hashed on the
 * session cookie so each member's requests and live socket stay on one machine while it is up).
 * Every answer names the machine that served it (nginx adds its upstream's address), so each
 * check says which instance served which member. Then it runs `CHECKS` and prints what each
 * measured. Namespaces, links and processes are removed after, on failure and on Ctrl-C too.
 * tests/two_machines_test.ts runs the same checks in `deno task test` (skipped, saying why, when
 * not root or without `ip netns` or nginx). The machines are made in scripts/twoMachines/machines.ts,
 * members and their sockets in members.ts, the checks in checks.ts.
 */

import { CHECK_ENV, CHECKS, closeRun, ms, newRun, quantile } from "./twoMachines/checks.ts";
import { startTwoMachines, stopAll, unavailable } from "./twoMachines/machines.ts";

if (import.meta.main) {
  const arg = (name: string, fallback: number) => {
    const i = Deno.args.indexOf(`--${name}`);
    const v = Number(i >= 0 ? Deno.args[i + 1] : fallback);
    if (!Number.isFinite(v) || v < 0) {
      console.error("usage: deno task two-machines [--rounds N] [--rtt-ms MS]");
      Deno.exit(2);
    }
    return v;
  };
  const rounds = arg("rounds", 10), rttMs = arg("rtt-ms", 5);
  const why = await unavailable();
  if (why) {
    console.error(`two-machines: cannot run here: ${why}`);
    Deno.exit(2);
  }
  // Ctrl-C while the machines start or the checks run: everything made so far is removed first.
  const onSignal = () => void stopAll().then(() => Deno.exit(130));
  Deno.addSignalListener("SIGINT", onSignal);
  Deno.addSignalListener("SIGTERM", onSignal);
  const h = await startTwoMachines({ rttMs, env: CHECK_ENV, log: (l) => console.log(l) });
  const run = newRun(h, rounds);
  let failed = 0;
  try {
    for (const c of CHECKS) {
      const t = performance.now();
      try {
        const line = await c.run(run);
        console.log(`ok   ${c.name} (${ms(performance.now() - t)})\n     ${line}`);
      } catch (e) {
        failed++;
        console.log(`FAIL ${c.name}\n     ${e instanceof Error ? e.message : e}`);
      }
    }
    const d = run.deliveries, a = run.afterAnswer;
    console.log(
      `deliveries across the machines: ${d.length}, p50 ${ms(quantile(d, 0.5))}, p95 ${ms(quantile(d, 0.95))}, ` +
        `max ${ms(Math.max(...d))} from the send (store ${rttMs} ms away); after the sender's answer: ` +
        `p50 ${ms(quantile(a, 0.5))}, p95 ${ms(quantile(a, 0.95))}, max ${ms(Math.max(...a))}`,
    );
  } finally {
    await closeRun(run);
    if (failed) {
      for (const m of h.machines) console.log(`--- instance ${m.name}, last output ---\n${m.output.slice(-3000)}`);
      console.log(`--- nginx error log ---\n${(await h.nginxLog()).slice(-3000)}`);
    }
    await h.stop();
  }
  Deno.exit(failed ? 1 : 0);
}
