import assert from "node:assert/strict";
import { cpuByKindLine, cpuSeconds, parseSummary, processKind, timeLine } from "./run_tests.ts";

Deno.test("run_tests - CPU seconds are read from /proc's stat line, a process name with spaces and parentheses included", () => {
  // pid (name) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime …
  const stat = "4242 (deno (run) x) S 1 4242 4242 0 -1 4194560 100 200 0 0 150 50 30000 4500 20 0 9 0";
  assert.deepEqual(cpuSeconds(stat), { self: 2, children: 345 });
  assert.equal(cpuSeconds(null), null);
  assert.equal(cpuSeconds("garbage"), null);
});

Deno.test("run_tests - the time line gives wall and CPU time side by side, and wall alone without /proc", () => {
  assert.equal(
    timeLine(612_345, { self: 2, children: 345 }),
    "time: 10m12s wall, 5m47s CPU (user+sys of the runner and every process it started)",
  );
  assert.equal(timeLine(59_600, null), "time: 1m00s wall");
  // The time line is not a summary line: .ci/run reads only the total.
  assert.equal(parseSummary(timeLine(1000, null)), null);
});

Deno.test("run_tests - a process is named by its kind: Chromium by its role, Deno by what it runs", () => {
  assert.deepEqual(processKind(["/usr/lib/chromium/chromium", "--type=renderer", "--lang=en-US"]), "chromium renderer");
  assert.deepEqual(processKind(["/usr/lib/chromium/chromium", "--headless", "--no-sandbox"]), "chromium browser");
  assert.deepEqual(processKind(["/usr/bin/deno", "test", "-A", "--no-check", "./a_test.ts"]), "deno test");
  assert.deepEqual(
    processKind(["/usr/bin/deno", "run", "-A", "/w/scripts/kvConnect.ts", "--port", "1"]),
    "deno kvConnect.ts",
  );
  assert.deepEqual(processKind(["/usr/sbin/nginx", "-c", "x"]), "nginx");
  assert.deepEqual(processKind([]), "?");
});

Deno.test("run_tests - the CPU breakdown names each kind, the runner's own time among them, most first, and their sum", () => {
  const line = cpuByKindLine(new Map([["deno test", 61], ["chromium renderer", 125.4]]), 2);
  assert.deepEqual(
    line,
    "CPU by kind (every process, sampled from /proc): chromium renderer 2m05s, deno test 1m01s, runner 0m02s; total 3m08s",
  );
});
