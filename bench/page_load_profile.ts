/**
 * Where a page load's Chromium CPU goes, by Chromium's own trace: a member's main screens
 * (bench/browser_loads.ts's) loaded in one open tab and each in a new context, as the tests load
 * them (`waitHydrated`), traced with the devtools.timeline and v8 categories. Prints each
 * process's and thread's CPU a load, and the renderer's main thread split by what it did (the
 * HTML's parse, script compile, script run, style, layout, paint...) by the self time of each
 * event (an event's CPU less its children's); then the script files each screen requests.
 *
 * Run: `deno run -A bench/page_load_profile.ts [--rounds 2] [--trace out.json]`.
 */

import { type Browser, chromium } from "playwright-core";
import { arg, type TraceEvent } from "./kit.ts";
import { startHarness } from "../tests/e2e/harness.ts";
import { CHROMIUM_FLAGS, chromiumPath } from "../tests/e2e/browserServer.ts";
import { loadScreen, memberState, openPhone, PATHS } from "./browser_loads.ts";

const ROUNDS = Number(arg("rounds", "2"));
const TRACE_OUT = arg("trace", "");
const CATEGORIES = [
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "v8",
  "v8.execute",
  "disabled-by-default-v8.compile",
  "blink",
  "loading",
  "toplevel",
  "cc",
  "gpu",
  "netlog",
  "navigation",
  "ipc",
  "mojom",
  "__metadata",
];

/** What a renderer main-thread event is, by its name (its self time: what it did beside its children). */
const KINDS: [string, RegExp][] = [
  ["garbage collection", /GC|Scavenge|MinorMS|MarkCompact|Sweep/],
  [
    "script compile",
    /[Cc]ompile|Parse(Program|Function|Lazy|Script)|PreParse|CacheScript|produce(Module)?Cache|Deserialize/,
  ],
  ["HTML and CSS parse", /^(ParseHTML|HTMLDocumentParser|.*Tokeniz|CSSParserImpl|ParseAuthorStyleSheet|RuleSet::)/],
  [
    "style",
    /^(UpdateLayoutTree|RecalcStyle|Document::(recalc|update)Style|StyleEngine|ScheduleStyle|InvalidateLayout)/,
  ],
  [
    "layout",
    /^(Layout|UpdateLayout|LocalFrameView::(performLayout|UpdateLayout)|InlineNode|LayoutShift|.*Intersection)/,
  ],
  [
    "paint and commit",
    /^(Paint|PrePaint|Layerize|UpdateLayer|CompositeLayers|PaintImage|Decode|ImageDecode|Commit|cc::|ProxyMain|BeginMainThreadFrame|LocalFrameView::|Blink\.Paint|Animation)/,
  ],
  [
    "script run",
    /^(v8\.run|v8\.callFunction|FunctionCall|EvaluateScript|v8\.evaluateModule|EventDispatch|TimerFire|FireAnimationFrame|RunMicrotasks|v8\.execute|V8\.Execute|XHRReadyStateChange|v8\.callModuleMethod|AsyncTask|BlinkScheduler_PerformMicrotaskCheckpoint|V8\.)/,
  ],
  [
    "loading (requests, navigation)",
    /^(Resource|Network|Loader|CommitLoad|FrameLoader|[Nn]avigation|DocumentLoader|DocumentModuleScriptFetcher|ModuleScript|RenderFrameImpl|AgentSchedulingGroup|WebFrame|V8PerIsolateData)/,
  ],
  ["tasks and messages", /^(RunTask|ThreadControllerImpl::RunTask|Receive mojo message|SimpleWatcher|ThreadPool)/],
];
function kindOf(name: string): string {
  return KINDS.find(([, re]) => re.test(name))?.[0] ?? "other";
}

interface Summary {
  threads: Map<string, number>;
  kinds: Map<string, number>;
  names: Map<string, number>;
}

/** Sums a trace: CPU by process and thread (top-level tasks) and the renderer main thread's self CPU by kind. */
function summarize(events: TraceEvent[]): Summary {
  const procName = new Map<number, string>(), threadName = new Map<string, string>();
  for (const e of events) {
    if (e.ph !== "M") continue;
    if (e.name === "process_name") procName.set(e.pid, String(e.args?.name));
    if (e.name === "thread_name") threadName.set(`${e.pid}:${e.tid}`, String(e.args?.name));
  }
  const threads = new Map<string, number>(), kinds = new Map<string, number>(), names = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  const byThread = new Map<string, TraceEvent[]>();
  for (const e of events) {
    if (e.ph !== "X" || e.tdur === undefined) continue;
    const key = `${e.pid}:${e.tid}`;
    (byThread.get(key) ?? byThread.set(key, []).get(key)!).push(e);
  }
  for (const [key, evs] of byThread) {
    const pid = Number(key.split(":")[0]);
    const label = `${procName.get(pid) ?? "?"} / ${threadName.get(key) ?? "?"}`;
    evs.sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
    const main = /Renderer/.test(procName.get(pid) ?? "") && /CrRendererMain/.test(threadName.get(key) ?? "");
    // A stack of open events; each event's self CPU is its tdur less its direct children's.
    const stack: { e: TraceEvent; end: number; child: number }[] = [];
    const close = (until: number) => {
      while (stack.length && stack.at(-1)!.end <= until) {
        const top = stack.pop()!;
        const self = Math.max(0, top.e.tdur! - top.child);
        if (main) {
          add(kinds, kindOf(top.e.name), self);
          add(names, top.e.name, self);
        }
        if (stack.length) stack.at(-1)!.child += top.e.tdur!;
        else add(threads, label, top.e.tdur!);
      }
    };
    for (const e of evs) {
      close(e.ts);
      stack.push({ e, end: e.ts + (e.dur ?? 0), child: 0 });
    }
    close(Infinity);
  }
  return { threads, kinds, names };
}

function print(title: string, s: Summary, loads: number) {
  const ms = (us: number) => (us / 1000 / loads).toFixed(1);
  const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
  console.log(`\n## ${title}: traced CPU a load (ms), by thread`);
  for (const [k, v] of top(s.threads, 14)) console.log(`  ${ms(v).padStart(7)}  ${k}`);
  console.log(`  renderer main thread, self time by kind:`);
  for (const [k, v] of top(s.kinds, 14)) console.log(`  ${ms(v).padStart(7)}  ${k}`);
  console.log(`  renderer main thread, self time by event:`);
  for (const [k, v] of top(s.names, 25)) console.log(`  ${ms(v).padStart(7)}  ${k}`);
}

const h = await startHarness({ ownBrowser: true, limitMs: 3_600_000 });
try {
  const storageState = await memberState(h, "bench-profile@example.com");
  const browser: Browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_FLAGS });
  const open = () => openPhone(browser, h.origin, storageState);
  const load = loadScreen;
  // Warm: the browser's own start is not a load.
  const warm = await open();
  await load(warm.page, "/");
  await warm.context.close();

  const tab = await open();
  await browser.startTracing(undefined, { categories: CATEGORIES });
  for (let r = 0; r < ROUNDS; r++) for (const p of PATHS) await load(tab.page, p);
  const buf = await browser.stopTracing();
  await tab.context.close();
  const tabLoads = ROUNDS * PATHS.length;
  if (TRACE_OUT) await Deno.writeFile(TRACE_OUT, buf);
  print("open tab", summarize(JSON.parse(new TextDecoder().decode(buf)).traceEvents), tabLoads);
  await browser.startTracing(undefined, { categories: CATEGORIES });
  for (let r = 0; r < ROUNDS; r++) {
    for (const p of PATHS) {
      const one = await open();
      await load(one.page, p);
      await one.context.close();
    }
  }
  const buf2 = await browser.stopTracing();
  if (TRACE_OUT) await Deno.writeFile(TRACE_OUT.replace(/\.json$/, "-context.json"), buf2);
  print("new context", summarize(JSON.parse(new TextDecoder().decode(buf2)).traceEvents), tabLoads);
  // Untraced: the scripts each screen requests, loaded in a new context (nothing cached).
  console.log(`\n## script files a screen requests in a new context (of them under 2 KB)`);
  for (const p of PATHS) {
    const one = await open();
    const scripts: Promise<number>[] = [];
    one.page.on("response", (r) => {
      if (r.request().resourceType() === "script") scripts.push(r.body().then((b) => b.length, () => 0));
    });
    await load(one.page, p);
    const sizes = await Promise.all(scripts);
    await one.context.close();
    console.log(`  ${String(sizes.length).padStart(4)} (${sizes.filter((n) => n < 2048).length})  ${p}`);
  }
  await browser.close();
} finally {
  await h.close();
}
Deno.exit(0);
