import assert from "node:assert/strict";
import { after, othersEnded } from "./wait.ts";

Deno.test("wait - a timed test in the suite waits until the runner says the other processes have ended", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/others-ended`;
    // Not in the suite: nothing to wait for.
    assert.equal(await othersEnded({ busyLoad: Infinity, file: undefined }), null);
    // In the suite: still waiting while the file is missing, released once the runner writes it.
    const waiting = othersEnded({ busyLoad: Infinity, file });
    assert.equal(await Promise.race([waiting, after(400, "still waiting")]), "still waiting");
    await Deno.writeTextFile(file, "");
    const line = await Promise.race([waiting, after(5_000, "never released")]);
    assert.match(String(line), /^0\.[3-9] s waited for the other test processes to end, then 0\.0 s for the load/);
    // A load average above `busyLoad` is waited out, at most `loadWaitMs`.
    const busy = await othersEnded({ busyLoad: -1, file, loadWaitMs: 300 });
    assert.match(String(busy), /^0\.0 s waited .*, then 0\.[3-9] s for the load average/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
