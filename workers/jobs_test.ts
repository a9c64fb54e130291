import assert from "node:assert/strict";
import { closeKv, kv, openKv } from "../kv/db.ts";
import { resetClock, shiftClock } from "../kv/clock.ts";
import { keys } from "../kv/keys.ts";
import {
  backoffMs,
  claimDueJobs,
  enqueueJob,
  enqueueJobNow,
  LEASE_MS,
  listDeadJobs,
  renewLease,
  settleJob,
} from "../kv/jobs.ts";
import { type Handlers, runDueJobs, startWorker } from "./jobs.ts";

/** A test handler that records its effect once per effect key, however often it runs. */
const idempotent: Handlers = {
  test: async (job) => {
    if (job.mode === "fail") throw new Error("boom");
    const key = ["test_effects", job.effectKey, "done"];
    await kv().atomic().check({ key, versionstamp: null }).set(key, 1).commit();
    await kv().atomic().sum(["test_effects", job.effectKey, "runs"], 1n).commit();
  },
};

async function jobsLeft(): Promise<number> {
  let n = 0;
  for await (const _ of kv().list({ prefix: ["jobs"] })) n++;
  return n;
}

Deno.test("jobs - a job is enqueued only with the change that caused it", async () => {
  await openKv(":memory:");
  try {
    await kv().set(["thing"], 1);
    const stale = await kv().get(["thing"]);
    await kv().set(["thing"], 2);
    const op = kv().atomic().check(stale).set(["thing"], 3);
    enqueueJob(op, { type: "test", effectKey: "x", mode: "ok" });
    assert.equal((await op.commit()).ok, false);
    assert.equal(await jobsLeft(), 0, "the failed change left no job");
    assert.equal(await runDueJobs(idempotent), 0);
  } finally {
    closeKv();
  }
});

Deno.test("jobs - a failing job is retried with backoff, then kept as a dead letter", async () => {
  await openKv(":memory:");
  try {
    await enqueueJobNow({ type: "test", effectKey: "f", mode: "fail" }, { maxAttempts: 3 });
    assert.equal(await runDueJobs(idempotent), 1);
    assert.equal(await runDueJobs(idempotent), 0, "not due again before its backoff");
    shiftClock(backoffMs(1) + 1);
    assert.equal(await runDueJobs(idempotent), 1);
    shiftClock(backoffMs(2) + 1);
    assert.equal(await runDueJobs(idempotent), 1);
    const dead = await listDeadJobs();
    assert.equal(dead.length, 1);
    assert.equal(dead[0].attempts, 3);
    assert.equal(dead[0].lastError, "boom");
    assert.equal(await jobsLeft(), 0);
    shiftClock(3_600_000);
    assert.equal(await runDueJobs(idempotent), 0, "a dead letter is not run again");
  } finally {
    resetClock();
    closeKv();
  }
});

Deno.test("jobs - a worker wakes on a new job at once", async () => {
  await openKv(":memory:");
  const worker = startWorker(idempotent, 60_000);
  try {
    const t = performance.now();
    await enqueueJobNow({ type: "test", effectKey: "w", mode: "ok" });
    while (!(await kv().get(["test_effects", "w", "done"])).value) {
      assert.ok(performance.now() - t < 5000, "the job ran within 5 s");
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    await worker.stop();
    closeKv();
  }
});

Deno.test("jobs - a worker killed mid-job: the job still completes, once", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/jobs.kv`;
  await openKv(path);
  try {
    await enqueueJobNow({ type: "test", effectKey: "k", mode: "hang" }, { leaseMs: 2000 });
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL("../tests/fixtures/job_worker.ts", import.meta.url).pathname, path],
      stdout: "null",
      stderr: "null",
    }).spawn();
    const t = performance.now();
    while (!(await kv().get(["test_effects", "k", "started"])).value) {
      assert.ok(performance.now() - t < 20_000, "the child claimed the job");
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill("SIGKILL");
    await child.status;
    assert.equal(await runDueJobs(idempotent), 0, "still leased to the dead worker");
    assert.equal(await jobsLeft(), 1, "the job was not lost");
    shiftClock(2001);
    assert.equal(await runDueJobs(idempotent), 1, "taken over once the lease ran out");
    assert.equal((await kv().get(["test_effects", "k", "done"])).value, 1);
    assert.equal((await kv().get<Deno.KvU64>(["test_effects", "k", "runs"])).value?.value, 1n);
    assert.equal(await jobsLeft(), 0);
    assert.equal((await listDeadJobs()).length, 0);
    let due = 0;
    for await (const _ of kv().list({ prefix: keys.jobsDue() })) due++;
    assert.equal(due, 0, "no due entry left behind");
  } finally {
    resetClock();
    closeKv();
    await Deno.remove(dir, { recursive: true });
  }
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("jobs - a worker SIGKILLed mid-job on the default lease: another worker completes it within 15 s, once", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/jobs.kv`;
  await openKv(path);
  let second: ReturnType<typeof startWorker> | undefined;
  try {
    assert.ok(LEASE_MS <= 10_000, "leases are short");
    await enqueueJobNow({ type: "test", effectKey: "d", mode: "hang" });
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL("../tests/fixtures/job_worker.ts", import.meta.url).pathname, path],
      stdout: "null",
      stderr: "null",
    }).spawn();
    const t0 = performance.now();
    while (!(await kv().get(["test_effects", "d", "started"])).value) {
      assert.ok(performance.now() - t0 < 20_000, "the child claimed the job");
      await sleep(50);
    }
    child.kill("SIGKILL");
    await child.status;
    const killed = performance.now();
    second = startWorker(idempotent, 250);
    while (!(await kv().get(["test_effects", "d", "done"])).value) {
      assert.ok(performance.now() - killed < 15_000, "another worker completed the job within 15 s");
      await sleep(100);
    }
    await second.stop();
    second = undefined;
    assert.equal((await kv().get<Deno.KvU64>(["test_effects", "d", "runs"])).value?.value, 1n);
    assert.equal(await jobsLeft(), 0);
    assert.equal((await listDeadJobs()).length, 0);
  } finally {
    await second?.stop();
    closeKv();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("jobs - a job that runs longer than its lease keeps renewing it: a second worker does not take it", async () => {
  await openKv(":memory:");
  const slow: Handlers = {
    test: async (job) => {
      await kv().atomic().sum(["test_effects", job.effectKey, "starts"], 1n).commit();
      await sleep(3500);
      await kv().set(["test_effects", job.effectKey, "done"], 1);
    },
  };
  const a = startWorker(slow, 50);
  const b = startWorker(slow, 50);
  try {
    await enqueueJobNow({ type: "test", effectKey: "long", mode: "ok" }, { leaseMs: 1000 });
    const t = performance.now();
    while (!(await kv().get(["test_effects", "long", "done"])).value) {
      assert.ok(performance.now() - t < 10_000, "the job finished");
      await sleep(50);
    }
    await a.stop();
    await b.stop();
    assert.equal((await kv().get<Deno.KvU64>(["test_effects", "long", "starts"])).value?.value, 1n, "run once");
    assert.equal(await jobsLeft(), 0, "settled by the worker that ran it");
  } finally {
    await a.stop();
    await b.stop();
    closeKv();
  }
});

Deno.test("jobs - a lease renewal after another worker took the job over gives up; the outcome is the new worker's", async () => {
  await openKv(":memory:");
  try {
    await enqueueJobNow({ type: "test", effectKey: "r", mode: "ok" }, { leaseMs: 1000 });
    const [first] = await claimDueJobs();
    assert.ok(first);
    assert.equal(await renewLease(first), true, "a held lease renews");
    assert.deepEqual(await claimDueJobs(), [], "a renewed lease is not taken");
    shiftClock(1001);
    const [second] = await claimDueJobs();
    assert.ok(second, "taken over once the lease ran out");
    assert.equal(second.rec.attempts, 2);
    assert.equal(await renewLease(first), false, "the old claim's renewal gives up");
    assert.equal(await settleJob(first, undefined), "lost");
    assert.equal(await renewLease(second), true);
    assert.equal(await settleJob(second, undefined), "done");
    assert.equal(await jobsLeft(), 0);
    let due = 0;
    for await (const _ of kv().list({ prefix: keys.jobsDue() })) due++;
    assert.equal(due, 0, "no due entry left behind");
  } finally {
    resetClock();
    closeKv();
  }
});

Deno.test("jobs - a job whose worker dies on every attempt becomes a dead letter after maxAttempts, not a loop", async () => {
  await openKv(":memory:");
  try {
    await enqueueJobNow({ type: "test", effectKey: "p", mode: "ok" }, { leaseMs: 1000, maxAttempts: 3 });
    for (let i = 1; i <= 3; i++) {
      const claimed = await claimDueJobs();
      assert.equal(claimed.length, 1, `claim ${i}`);
      assert.equal(claimed[0].rec.attempts, i);
      shiftClock(1001); // the worker died: its lease runs out
    }
    assert.deepEqual(await claimDueJobs(), []);
    const dead = await listDeadJobs();
    assert.equal(dead.length, 1);
    assert.equal(dead[0].attempts, 3);
    assert.match(dead[0].lastError ?? "", /lease ran out/);
    assert.equal(await jobsLeft(), 0);
  } finally {
    resetClock();
    closeKv();
  }
});
