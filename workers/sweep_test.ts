import assert from "node:assert/strict";
import { startSweep } from "./sweep.ts";
import { until } from "../tests/wait.ts";

Deno.test("sweeps - a sweep runs after its first delay, again after each run, one at a time; stop waits for a run under way", async () => {
  let runs = 0, atOnce = 0, most = 0;
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const sweep = startSweep(
    "test sweep",
    async () => {
      runs++;
      most = Math.max(most, ++atOnce);
      if (runs === 3) await held;
      atOnce--;
    },
    () => 5,
    1,
  );
  await until(() => runs === 3, "a third run");
  let stopped = false;
  const stopping = sweep.stop().then(() => (stopped = true));
  // A stop that did not wait would have ended within these turns: it awaits nothing else.
  for (let i = 0; i < 20; i++) await Promise.resolve();
  assert.equal(stopped, false, "stop waits for the run under way");
  release();
  await stopping;
  assert.equal(runs, 3, "no run after the stop");
  assert.equal(most, 1, "one run at a time");
});

Deno.test("sweeps - a failed run is logged under the sweep's name and the sweep goes on", async () => {
  let runs = 0;
  const logged: unknown[][] = [];
  const error = console.error;
  console.error = (...a: unknown[]) => void logged.push(a);
  const sweep = startSweep(
    "test sweep",
    () => {
      runs++;
      return runs === 1 ? Promise.reject(new Error("the store went away")) : Promise.resolve();
    },
    () => 1,
    1,
  );
  try {
    await until(() => runs >= 2, "a run after the failed one");
  } finally {
    await sweep.stop();
    console.error = error;
  }
  assert.deepEqual(logged[0], ["test sweep:", "the store went away"]);
});
