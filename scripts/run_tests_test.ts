import assert from "node:assert/strict";
import { LEAST_BATCH_S, longestFirst, REMOTE_LANE, REMOTE_LEAST_BATCH_S, takeBatch } from "./run_tests.ts";
import {
  costliestLines,
  cpuByKindLine,
  cpuSeconds,
  fileCpuMeter,
  processKind,
  timeLine,
  treeCpuSeconds,
} from "./runTests/cpu.ts";
import { until } from "../tests/wait.ts";
import { failedTests, fileStarted, parseJunit, parseSummary, testEnded } from "./runTests/output.ts";
import { entryModule, isEntryHeader, loadsTheApp, MARK, markedFile, ownIsolateReason } from "./runTests/shared.ts";
import { DEVELOPMENT_BUILD_FILES, reactBuildEnv } from "./runTests/reactBuild.ts";

Deno.test("run_tests - CPU seconds are read from /proc's stat line, a process name with spaces and parentheses included", () => {
  // pid (name) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime …
  const stat = "4242 (deno (run) x) S 1 4242 4242 0 -1 4194560 100 200 0 0 150 50 30000 4500 20 0 9 0";
  assert.deepEqual(cpuSeconds(stat), { self: 2, children: 345 });
  assert.equal(cpuSeconds(null), null);
  assert.equal(cpuSeconds("garbage"), null);
});

Deno.test("run_tests - the time line gives wall and CPU time side by side, and wall alone without /proc", () => {
  // The processes sampled hold the ones waited for and those no one waited for (a renderer whose zygote outlived its browser).
  const sampled = new Map([["deno test", 300], ["headless shell renderer", 200], ["headless shell browser", 45]]);
  assert.equal(
    timeLine(612_345, { self: 2, children: 345 }, sampled),
    "time: 10m12s wall, 9m07s CPU (user+sys of every process of the run, read from /proc; " +
      "5m47s of it in the runner and the processes it waited for)",
  );
  assert.equal(
    timeLine(612_345, { self: 2, children: 345 }),
    "time: 10m12s wall, 5m47s CPU (user+sys of the runner and the processes it waited for)",
  );
  assert.equal(timeLine(59_600, null), "time: 1m00s wall");
  // The time line is not a summary line: .ci/run reads only the total.
  assert.equal(parseSummary(timeLine(1000, null)), null);
});

Deno.test("run_tests - a process is named by its kind: Chromium by its role, Deno by what it runs", () => {
  assert.deepEqual(processKind(["/usr/lib/chromium/chromium", "--type=renderer", "--lang=en-US"]), "chromium renderer");
  assert.deepEqual(processKind(["/usr/lib/chromium/chromium", "--headless", "--no-sandbox"]), "chromium browser");
  assert.deepEqual(
    processKind(["/usr/lib/chromium/chromium-headless-shell --type=gpu-process --no-sandbox"]),
    "headless shell gpu-process",
  );
  assert.deepEqual(
    processKind(["/usr/lib/chromium/chromium-headless-shell", "--no-sandbox"]),
    "headless shell browser",
  );
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

Deno.test("run_tests - each file's CPU is its processes' CPU from its start to the next file's, what came before the first apart", () => {
  // Two processes (a test process, its KV Connect server): self and children as /proc gives them.
  const readings: Record<number, { self: number; children: number } | null> = {
    1: { self: 0.2, children: 0 },
    2: { self: 5, children: 0 },
  };
  const meter = fileCpuMeter([1, 2], (pid) => readings[pid]);
  readings[1] = { self: 1.2, children: 0 };
  meter.file("./a_test.ts");
  readings[1] = { self: 3.2, children: 0.5 }, readings[2] = { self: 6, children: 0 };
  meter.file("./b_test.ts");
  readings[1] = { self: 4.2, children: 0.5 };
  meter.file("./a_test.ts");
  readings[1] = { self: 4.7, children: 0.5 };
  meter.end();
  // After the last file (the process's exit, a reaped process read as nothing) counts for none.
  readings[1] = null;
  meter.file("./c_test.ts");
  const { cpu, before } = meter.result();
  assert.ok(Math.abs(before - 1) < 1e-9);
  assert.deepEqual([...cpu.keys()], ["./a_test.ts", "./b_test.ts"]);
  assert.ok(Math.abs(cpu.get("./a_test.ts")! - 4) < 1e-9 && Math.abs(cpu.get("./b_test.ts")! - 1) < 1e-9);
  assert.deepEqual(costliestLines(cpu, new Map([["./a_test.ts", 12.25]]), 1), [
    "    4.0 s CPU    12.3 s  ./a_test.ts",
  ]);
  assert.deepEqual(costliestLines(cpu, new Map()).at(-1), "    1.0 s CPU       ? s  ./b_test.ts");
  assert.deepEqual(costliestLines(cpu, new Map(), 1, new Map([["./a_test.ts", 2.5]])), [
    "    4.0 s CPU       ? s  ./a_test.ts  (Chromium 2.5 s of it)",
  ]);
});

Deno.test("run_tests - a tree's CPU counts its live processes and those that ended in the parent that reaped them", async () => {
  assert.equal(treeCpuSeconds(2 ** 22 + 7), null, "no such process");
  // A shell (not waited for by this process while it lives) whose child spends CPU, ends and is reaped.
  const shell = new Deno.Command("sh", {
    args: ["-c", "awk 'BEGIN { for (i = 0; i < 3000000; i++) x += i }'; exec sleep 60"],
    stdout: "null",
  }).spawn();
  try {
    const tree = await until(() => {
      const t = treeCpuSeconds(shell.pid);
      return t && t.children > 0 ? t : null;
    }, "the shell's child to end, reaped with its CPU");
    const mine = treeCpuSeconds(Deno.pid)!;
    assert.ok(mine.self >= cpuSeconds()!.self, "a tree counts its root");
    assert.ok(mine.children + mine.self >= tree.children + tree.self, "and every live process below it");
  } finally {
    shell.kill();
    await shell.status;
  }
});

Deno.test("run_tests - a queue is taken longest first: a long file alone, then batches that shrink as the queue empties", () => {
  const w: Record<string, number> = { a: 160, b: 125, c: 80, d: 75, e: 40, f: 30, g: 10, h: 5, i: 1, j: 1 };
  const weight = (f: string) => w[f];
  const queue = longestFirst(Object.keys(w).reverse(), weight);
  assert.deepEqual(queue, ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]);
  // With a least of 20 s given. 527 s among 4 slots: 66 s a batch; the longest file is taken even past that, and alone.
  assert.deepEqual(takeBatch(queue, 4, weight, 20), ["a"]);
  // 367 s left: 46 s a batch, and the next file (125 s) again alone.
  assert.deepEqual(takeBatch(queue, 4, weight, 20), ["b"]);
  // 242 s left: 30 s a batch; 80 s alone.
  assert.deepEqual(takeBatch(queue, 4, weight, 20), ["c"]);
  // 162 s left: 20 s a batch; then 87 s left: 11 s, raised to the 20 s least.
  assert.deepEqual(takeBatch(queue, 4, weight, 20), ["d"]);
  assert.deepEqual(takeBatch(queue, 4, weight, 20), ["e"]);
  // 47 s left: 20 s; then the small files go together.
  assert.deepEqual(takeBatch(queue, 4, weight, 20), ["f"]);
  assert.deepEqual(takeBatch(queue, 4, weight, 20), ["g", "h", "i", "j"]);
  assert.deepEqual(queue, []);
  assert.deepEqual(takeBatch(queue, 4, weight, 20), []);
});

Deno.test("run_tests - many small files go in few batches: each batch holds about half a slot's share", () => {
  const files = Array.from({ length: 100 }, (_, i) => `f${String(i).padStart(3, "0")}`);
  const queue = longestFirst(files, () => 2);
  const batches: string[][] = [];
  while (queue.length) batches.push(takeBatch(queue, 2, () => 2, 20));
  // 200 s between 2 slots: batches of 50 s (25 files), then 37 s, 28 s…, never under 20 s (10 files).
  assert.deepEqual(batches.map((b) => b.length), [25, 18, 14, 10, 10, 10, 10, 3]);
  assert.deepEqual(batches.flat(), files);
  // With the default least (LEAST_BATCH_S, 40 s): the same files in five processes rather than eight.
  const again = longestFirst(files, () => 2), fewer: string[][] = [];
  while (again.length) fewer.push(takeBatch(again, 2, () => 2));
  assert.equal(LEAST_BATCH_S, 40);
  assert.deepEqual(fewer.map((b) => b.length), [25, 20, 20, 20, 15]);
  assert.deepEqual(fewer.flat(), files);
});

Deno.test("run_tests - the remote lane goes in fewer, larger batches than the local one: half as many processes", () => {
  const weight = (f: string) => REMOTE_LANE[f];
  const batches = (least: number) => {
    const queue = longestFirst(Object.keys(REMOTE_LANE), weight), out: string[][] = [];
    while (queue.length) out.push(takeBatch(queue, 2, weight, least));
    return out;
  };
  // Its 37 files by their measured seconds on remote KV (688 s), between its 2 slots.
  assert.equal(REMOTE_LEAST_BATCH_S, 150);
  const remote = batches(REMOTE_LEAST_BATCH_S), local = batches(LEAST_BATCH_S);
  assert.deepEqual(remote.map((b) => b.length), [3, 4, 6, 9, 15]);
  assert.deepEqual(local.map((b) => b.length), [3, 3, 4, 3, 3, 2, 2, 2, 3, 5, 7]);
  assert.ok(remote.length * 2 <= local.length, `${remote.length} remote batches against ${local.length}`);
  assert.deepEqual(batches(REMOTE_LEAST_BATCH_S).flat().sort(), Object.keys(REMOTE_LANE).sort());
});

Deno.test("run_tests - a batch takes only files of its first file's kind; the others stay in the queue, in order", () => {
  const w: Record<string, number> = { B1: 60, o1: 30, B2: 20, o2: 12, B3: 10, o3: 5, B4: 1 };
  const weight = (f: string) => w[f];
  const kind = (f: string) => f[0];
  const queue = longestFirst(Object.keys(w), weight);
  // 138 s among 2 slots, least 40 s: the first batch takes browser files only, passing over the others.
  assert.deepEqual(takeBatch(queue, 2, weight, 40, kind), ["B1"]);
  assert.deepEqual(queue, ["o1", "B2", "o2", "B3", "o3", "B4"]);
  // 78 s left: o1, then B2 passed over, and o2 would pass the 40 s.
  assert.deepEqual(takeBatch(queue, 2, weight, 40, kind), ["o1"]);
  assert.deepEqual(takeBatch(queue, 2, weight, 40, kind), ["B2", "B3", "B4"]);
  assert.deepEqual(takeBatch(queue, 2, weight, 40, kind), ["o2", "o3"]);
  assert.deepEqual(queue, []);
  // Without a kind, the same queue goes as before: the next files whatever they are.
  const mixed = longestFirst(Object.keys(w), weight);
  for (const batch of [["B1"], ["o1"], ["B2", "o2"], ["B3", "o3", "B4"]]) {
    assert.deepEqual(takeBatch(mixed, 2, weight, 40), batch);
  }
});

Deno.test("run_tests - browser files run on React's production build, the accessibility walk and every other file on its development build", () => {
  const production = { NODE_ENV: "production" };
  assert.deepEqual(reactBuildEnv(["./tests/e2e/likes_test.ts", "./tests/e2e/map_test.ts"], undefined), production);
  // The walk of every page keeps React's development checks (keys, nesting) on every page the server renders.
  assert.ok(DEVELOPMENT_BUILD_FILES.has("./tests/e2e/a11y_test.ts"));
  assert.deepEqual(reactBuildEnv(["./tests/e2e/a11y_test.ts"], undefined), {});
  assert.deepEqual(reactBuildEnv(["./tests/e2e/likes_test.ts", "./tests/e2e/a11y_test.ts"], undefined), {});
  // Components, pages and the API are tested on the development build; one of them in a batch keeps it.
  assert.deepEqual(reactBuildEnv(["./routes/pages/pages_test.ts"], undefined), {});
  assert.deepEqual(reactBuildEnv(["./tests/e2e/likes_test.ts", "./components/Time_test.ts"], undefined), {});
  assert.deepEqual(reactBuildEnv([], undefined), {});
  // A NODE_ENV the run was given holds for every process: the runner adds none.
  assert.deepEqual(reactBuildEnv(["./tests/e2e/likes_test.ts"], "development"), {});
});

Deno.test("run_tests - a process started with NODE_ENV=production renders with React's production build, one without it with the development build", async () => {
  const dir = await Deno.makeTempDir({ prefix: "react-build-" });
  try {
    const root = new URL("..", import.meta.url).pathname;
    // React's development build warns of a list without keys when rendering; its production build does not.
    await Deno.writeTextFile(
      `${dir}/render_test.ts`,
      `import { createElement } from "react";\nimport { renderToString } from "react-dom/server";\n` +
        `Deno.test("render", () => {\n` +
        `  const warned: unknown[] = [];\n  const error = console.error;\n  console.error = (...a) => warned.push(a);\n` +
        `  renderToString(createElement("ul", null, [createElement("li", null, "a"), createElement("li", null, "b")]));\n` +
        `  console.error = error;\n  console.log("WARNED " + warned.length);\n});\n`,
    );
    const warnings = async (env: Record<string, string>) => {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["test", "--no-check", "-A", `--config=${root}deno.json`, `${dir}/render_test.ts`],
        env: { NO_COLOR: "1", ...env },
        clearEnv: true,
        cwd: root,
      }).output();
      return new TextDecoder().decode(out.stdout).match(/WARNED (\d+)/)?.[1];
    };
    assert.equal(await warnings({ ...reactBuildEnv(["./tests/e2e/likes_test.ts"], undefined) }), "0");
    assert.equal(await warnings({ ...reactBuildEnv(["./tests/e2e/a11y_test.ts"], undefined) }), "1");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("run_tests - a process's progress is read from its lines: a file starts, a test ends; deno's slow-test notices are neither", () => {
  assert.equal(fileStarted("running 3 tests from ./tests/e2e/a11y_test.ts"), "./tests/e2e/a11y_test.ts");
  assert.equal(fileStarted("running 1 test from ./routes/api/system_test.ts"), "./routes/api/system_test.ts");
  assert.equal(fileStarted("[p1.1] ok | 3 passed | 0 failed (2s)"), null);
  assert.equal(testEnded("system - ping, version and version_frontend answer ... ok (22ms)"), true);
  assert.equal(testEnded("e2e - the chat header ... FAILED (18s)"), true);
  assert.equal(testEnded("a step ... ignored (0ms)"), true);
  assert.equal(testEnded("e2e - accessibility, logged out and in ..."), false);
  assert.equal(
    testEnded("e2e - accessibility ...'e2e - accessibility' has been running for over (16m0s)"),
    false,
  );
  assert.equal(testEnded("harness: the test is still running after 240 s; closing its browser"), false);
});

Deno.test("run_tests - the failed tests are named from a report's FAILURES section, and a stopped process by its line", () => {
  const tail = [
    " ERRORS ",
    "",
    "e2e desktop - map: markers => ./tests/e2e/map_test.ts:175:8",
    "error: AssertionError: 12 !== 13",
    "",
    " FAILURES ",
    "",
    "e2e desktop - map: markers => ./tests/e2e/map_test.ts:175:8",
    "health - sealed => ./routes/api/health_test.ts:20:6",
    "",
    "FAILED | 3 passed | 2 failed (1m59s)",
    "[p2] no test ended in 15 min in ./tests/e2e/fit_test.ts: the process is stopped, its file failed",
  ].join("\n");
  assert.deepEqual(failedTests(tail), [
    "./tests/e2e/map_test.ts  e2e desktop - map: markers",
    "./routes/api/health_test.ts  health - sealed",
    "[p2] no test ended in 15 min in ./tests/e2e/fit_test.ts: the process is stopped, its file failed",
  ]);
  assert.deepEqual(failedTests(""), []);
});

Deno.test("run_tests - a file keeps an isolate of its own when it sets the environment or replaces a global at its top level, or is listed", () => {
  assert.equal(ownIsolateReason("./a_test.ts", 'Deno.test("x", () => {\n  Deno.env.set("A", "1");\n});'), null);
  assert.equal(
    ownIsolateReason("./a_test.ts", 'Deno.env.set("TILE_URL", url);'),
    "sets the environment at its top level",
  );
  // Spelled in parts, so that this file's own text does not replace a global by the rule it tests.
  const replacing = `${"globalThis"}.fetch = fake;`;
  assert.equal(ownIsolateReason("./a_test.ts", replacing), "replaces a global at its top level");
  assert.equal(ownIsolateReason("./a_test.ts", "if (globalThis.x === 1) {}"), null);
  assert.match(
    ownIsolateReason("./a_test.ts", `Deno.test("x", () => {\n  ${replacing}\n});`)!,
    /by hand/,
  );
  assert.equal(
    ownIsolateReason("./a_test.ts", 'Deno.test("x", () => {\n  using _ = replaced(globalThis, { fetch: fake });\n});'),
    null,
  );
  assert.equal(ownIsolateReason("./a_test.ts", 'Deno.test.only("x", () => {});'), "has a test marked only");
  assert.match(ownIsolateReason("./kv/ids_test.ts", "")!, /ids/);
});

Deno.test("run_tests - files in one isolate: each file's start is read from its marker, its tests are named by their own file, and a file that does not load fails alone", async () => {
  const dir = await Deno.makeTempDir({ prefix: "shared-isolate-" });
  try {
    await Deno.writeTextFile(`${dir}/a_test.ts`, 'Deno.test("a one", () => {});\nDeno.test("a two", () => {});\n');
    await Deno.writeTextFile(`${dir}/b_test.ts`, 'throw new Error("b does not load");\n');
    await Deno.writeTextFile(`${dir}/c_test.ts`, 'Deno.test("c one", () => {});\n');
    await Deno.writeTextFile(`${dir}/entry_test.ts`, entryModule(dir, ["./a_test.ts", "./b_test.ts", "./c_test.ts"]));
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["test", "--no-check", "--allow-read", `--junit-path=${dir}/j.xml`, `${dir}/entry_test.ts`],
      env: { NO_COLOR: "1" },
      cwd: dir,
    }).output();
    const lines = new TextDecoder().decode(out.stdout).split("\n");
    assert.deepEqual(lines.map(markedFile).filter(Boolean), ["./a_test.ts", "./b_test.ts", "./c_test.ts"]);
    assert.ok(lines.some((l) => isEntryHeader(l, `${dir}/entry_test.ts`)));
    // The marker tests are ignored ones: three, beside one failure (b) and three passes.
    assert.deepEqual(parseSummary(lines.find((l) => parseSummary(l))!), {
      passed: 3,
      passedSteps: 0,
      failed: 1,
      failedSteps: 0,
      ignored: 3,
    });
    const timed = parseJunit(await Deno.readTextFile(`${dir}/j.xml`)).filter((t) => !t.name.startsWith(MARK));
    assert.deepEqual(timed.map((t) => `${t.file.split("/").pop()}  ${t.name}`).sort(), [
      "a_test.ts  a one",
      "a_test.ts  a two",
      "c_test.ts  c one",
      "entry_test.ts  ./b_test.ts loads",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("run_tests - the app's graph is loaded with the entry's own, before the files' markers, where a file loads the app", async () => {
  assert.ok(loadsTheApp('import { testApp } from "../../tests/api.ts";'));
  assert.ok(loadsTheApp('import { startHarness } from "./harness.ts";'));
  assert.ok(loadsTheApp("import { createApp } from '../main.ts';"));
  // The islands' own query client (islands/queries/api.ts) and an instance in a process of its own are not the app loaded.
  assert.ok(!loadsTheApp('import { api } from "./api.ts";'));
  assert.ok(!loadsTheApp('import { startInstance } from "../tests/instance.ts";'));
  const dir = await Deno.makeTempDir({ prefix: "shared-preload-" });
  try {
    await Deno.writeTextFile(`${dir}/app.ts`, 'console.log("app loaded");\n');
    await Deno.writeTextFile(`${dir}/a_test.ts`, 'Deno.test("a one", () => {});\n');
    const entry = entryModule(dir, ["./a_test.ts"], ["./app.ts"]);
    // A static import: Deno loads it with the entry's graph (an import() of it would load it apart).
    assert.match(entry.split("\n")[1], /^import "file:\/\/.*\/app\.ts";$/);
    await Deno.writeTextFile(`${dir}/entry_test.ts`, entry);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["test", "--no-check", "--allow-read", `${dir}/entry_test.ts`],
      env: { NO_COLOR: "1" },
      cwd: dir,
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    assert.ok(out.success);
    assert.ok(text.indexOf("app loaded") < text.indexOf(`${MARK}./a_test.ts`), text);
    assert.equal(parseSummary(text.split("\n").find((l) => parseSummary(l))!)?.passed, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
