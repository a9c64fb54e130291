/**
 * The live layer as members use it: `--pairs` pairs of members hold conversations over the real
 * event sockets for `--minutes` (or `--seconds`) while `--burn` busy processes take the machine's
 * cores. In each pair one sends, the other's socket receives it, they read it (a PUT), the
 * sender's socket receives the read receipt, then, after a pause, the other answers. Each message
 * is timed from before its POST to its event on the recipient's socket (delivery), each receipt
 * from before the read call to its event on the sender's socket. Sockets that drop reconnect, as
 * pages do. A message or receipt whose event never came is lost.
 *
 * With `--browsers N`, N more pairs converse in real Chromium tabs (the app's own pages: a
 * message typed and sent in one tab, timed to its bubble in the other tab, and to the second check
 * in the first once the other tab has shown it).
 *
 * The server's CPU and its threads' wait for a core (/proc) are counted apart from this process's
 * (the socket pairs' clients), so a slow delivery can be told apart: a server short of CPU for its
 * own work, or one kept waiting by the rest of the machine.
 *
 * With `--clients-nice N`, the clients (this process and its tabs) run at nice N: they stand for
 * members' phones elsewhere, and take only what the server and the busy processes leave.
 *
 * With `--before DIR` (another checkout), each of `--rounds` rounds runs the soak on that
 * checkout's server and on this one's, with the same options, the two in turn first: a before and
 * after measured on the machine in the same state. Results are recorded under `--name` (and `<name>-before`).
 *
 * Run: `deno task soak [--pairs 200] [--minutes 10] [--burn 1] [--live] [--browsers 2]
 * [--clients-nice 10] [--server-profile <dir>] [--before DIR --rounds 2] [--name soak]`; prints a
 * table and one JSON line a run; exits 1 when anything was lost or a p99 is 1 s or more.
 */

import { chromium } from "playwright-core";
import {
  arg,
  burnCpu,
  descendantsCpuMs,
  descendantsWaitMs,
  eventsVersionIn,
  loadAverageText,
  type Member,
  niceThisProcess,
  pct,
  processCpuMs,
  processWaitMs,
  recordResults,
  type ResultRow,
  seedMembers,
  sleep,
  startApp,
  threadCpuMs,
} from "./kit.ts";
import { CHROMIUM_FLAGS, chromiumPath } from "../tests/e2e/browserServer.ts";

export interface SoakOptions {
  pairs: number;
  seconds: number;
  /** Busy processes started beside the app. */
  burn: number;
  /** Sockets on the live listener (LIVE_PORT) instead of the main port. */
  live: boolean;
  /** Pairs that converse in Chromium tabs, beside the others. */
  browsers?: number;
  /** The app's service worker in the tabs: allowed as in a member's browser unless "block" (decision 0298). */
  serviceWorkers?: "allow" | "block";
  /**
   * An islands build the tabs' pages are served from (the test suite's shared one:
   * tests/islands_build.ts), instead of the app building its own at start.
   */
  buildDir?: string;
  /** A folder for the server's CPU profile (`--server-profile <dir>`), written when it stops. */
  serverProfileDir?: string;
  /**
   * The scheduling priority (nice, 0 to 19) of the clients: this process and the Chromium it
   * starts, set after the server and the busy processes started (which keep 0).
   */
  clientsNice?: number;
  /** Another checkout whose server is soaked instead of this one's (a "before"). */
  root?: string;
}

export interface SoakResult {
  messages: number;
  lostMessages: number;
  receipts: number;
  lostReceipts: number;
  deliveryP50: number;
  deliveryP99: number;
  receiptP50: number;
  receiptP99: number;
  /** Sockets that closed and were opened again. */
  reconnects: number;
  /** Calls answered with another status than expected. */
  failedCalls: number;
  /**
   * Commits that wrote member events (the store's events version, read from the file before the
   * server started and after it stopped): a message's send and its read are one each unless group
   * commit joined them with others.
   */
  eventCommits: number;
  /**
   * Where the time went while the pairs conversed: the server process's CPU and its threads' time
   * runnable but waiting for a core, the same for this process (the socket pairs' clients), the
   * wall time, and the load average at the end (/proc; NaN elsewhere).
   */
  cpu: {
    wallMs: number;
    serverCpuMs: number;
    serverWaitMs: number;
    clientCpuMs: number;
    clientWaitMs: number;
    /** The worst second of the server: its highest wait for a core within one second (ms). */
    serverWorstWaitMsPerS: number;
    /** The server's CPU by thread name (ms): which of its threads did the work. */
    serverThreadsMs: Record<string, number>;
    load: string;
  };
  /** The Chromium pairs' messages and receipts, timed on the pages (absent without `browsers`). */
  tabs?: {
    messages: number;
    lost: number;
    deliveryP99: number;
    receipts: number;
    lostReceipts: number;
    receiptP99: number;
    /** The CPU of the Chromium processes the tabs ran in (clients too, counted apart). */
    cpuMs: number;
    /** How long those processes' threads waited for a core while the tabs conversed. */
    waitMs: number;
    /**
     * Delivery p99 as the pages saw it: from the Enter key in the sender's page to the bubble in
     * the recipient's (without the driver's own round trips to the tabs).
     */
    pageDeliveryP99: number;
  };
}

/** How long a pair waits for an event before it counts it as late and goes on. */
const WAIT_MS = 5000;

export async function soak(o: SoakOptions): Promise<SoakResult> {
  const dir = await Deno.makeTempDir({ prefix: "soak-" });
  const tabPairs = o.browsers ?? 0;
  const everyone = await seedMembers(`${dir}/app.kv`, (o.pairs + tabPairs) * 2, "soak");
  const members = everyone.slice(0, o.pairs * 2);
  const eventsVersionBefore = await eventsVersionIn(`${dir}/app.kv`);
  const app = await startApp(
    `${dir}/app.kv`,
    {
      ...(o.live ? { LIVE_PORT: "0" } : {}),
      // The tabs need the island bundles: the given build, else one the app makes at start.
      ...(tabPairs
        ? (o.buildDir ? { BUILD_DIR: o.buildDir } : { BUILD_ON_START: "1", BUILD_DIR: `${dir}/build` })
        : {}),
    },
    o.serverProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${o.serverProfileDir}`] : [],
    o.root,
  );
  const burner = burnCpu(o.burn);
  if (o.clientsNice) await niceThisProcess(o.clientsNice);
  const origin = app.origin;
  const socketBase = (o.live ? app.live : origin).replace(/^http/, "ws");

  /** When each awaited event arrived, by "message:<id>" or "read:<reader>><sender>:<n>". */
  const arrived = new Map<string, number>();
  const waiters = new Map<string, () => void>();
  const readCount = new Map<string, number>();
  const arrive = (key: string) => {
    if (arrived.has(key)) return;
    arrived.set(key, performance.now());
    waiters.get(key)?.();
  };
  const waitFor = (key: string) =>
    new Promise<boolean>((resolve) => {
      if (arrived.has(key)) return resolve(true);
      const t = setTimeout(() => {
        waiters.delete(key);
        resolve(false);
      }, WAIT_MS);
      waiters.set(key, () => {
        clearTimeout(t);
        waiters.delete(key);
        resolve(true);
      });
    });

  let reconnects = 0, failedCalls = 0, stopped = false;
  const sockets = new Set<WebSocket>();
  const open = (m: Member) =>
    new Promise<void>((ready) => {
      const connect = () => {
        if (stopped) return;
        const ws = new WebSocket(`${socketBase}/api/events`, {
          headers: { cookie: m.cookie, origin },
        } as unknown as string[]);
        sockets.add(ws);
        ws.onmessage = (msg) => {
          const e = JSON.parse(String(msg.data));
          if (e.event === "ready") ready();
          if (e.event !== "member") return;
          const d = e.data;
          if (d.type === "message" && d.to === m.profileId) arrive(`message:${d.id}`);
          if (d.type === "read" && d.of === m.profileId) {
            const pair = `${d.by}>${m.profileId}`;
            const n = (readCount.get(pair) ?? 0) + 1;
            readCount.set(pair, n);
            arrive(`read:${pair}:${n}`);
          }
        };
        ws.onclose = () => {
          sockets.delete(ws);
          if (stopped) return;
          reconnects++;
          setTimeout(connect, 200);
        };
        ws.onerror = () => {};
      };
      connect();
    });

  const call = async (m: Member, method: string, path: string, body?: unknown) => {
    const r = await fetch(`${origin}${path}`, {
      method,
      headers: { cookie: m.cookie, origin, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = await r.json().catch(() => null);
    return { status: r.status, data };
  };

  const deliveries: number[] = [], receipts: number[] = [];
  let messages = 0, lostMessages = 0, receiptsAsked = 0, lostReceipts = 0;
  const late: string[] = [];
  let tabs: SoakResult["tabs"];
  const serverPid = app.child.pid;
  let cpu: SoakResult["cpu"] | undefined;
  let sampler: ReturnType<typeof setInterval> | undefined;
  try {
    for (let i = 0; i < members.length; i += 50) await Promise.all(members.slice(i, i + 50).map(open));
    // The server's and the clients' CPU apart, from the start of the conversations to their end.
    const start = {
      t: performance.now(),
      sc: processCpuMs(serverPid),
      sw: processWaitMs(serverPid),
      cc: processCpuMs(),
      cw: processWaitMs(),
      threads: threadCpuMs(serverPid),
    };
    let worstWait = 0, lastWait = start.sw;
    sampler = setInterval(() => {
      const w = processWaitMs(serverPid);
      worstWait = Math.max(worstWait, w - lastWait);
      lastWait = w;
    }, 1000);
    const until = performance.now() + o.seconds * 1000;
    const pairRun = async (a: Member, b: Member) => {
      let [from, to] = [a, b];
      let reads = 0;
      const readsOf = new Map<Member, number>([[a, 0], [b, 0]]);
      while (performance.now() < until) {
        const t0 = performance.now();
        const sent = await call(from, "POST", "/api/message", {
          senderProfileId: from.profileId,
          recipientProfileId: to.profileId,
          bodyText: "how are you doing",
          profilePicIds: [],
        });
        if (sent.status !== 201) {
          failedCalls++;
          await sleep(1000);
          continue;
        }
        messages++;
        const key = `message:${sent.data.id}`;
        if (await waitFor(key)) deliveries.push(arrived.get(key)! - t0);
        else late.push(key);
        // The recipient reads it; the sender's socket shows the second check.
        await sleep(50 + Math.random() * 200);
        const t1 = performance.now();
        const read = await call(to, "PUT", `/api/messages/read/${from.profileId}`);
        if (read.status !== 200 || read.data?.marked !== 1) failedCalls++;
        else {
          receiptsAsked++;
          const n = readsOf.get(from)! + 1;
          readsOf.set(from, n);
          reads++;
          const rkey = `read:${to.profileId}>${from.profileId}:${n}`;
          if (await waitFor(rkey)) receipts.push(arrived.get(rkey)! - t1);
          else late.push(rkey);
        }
        await sleep(500 + Math.random() * 1500);
        [from, to] = [to, from];
      }
      return reads;
    };
    const tabsRun = tabPairs ? inTabs(origin, everyone.slice(o.pairs * 2), until, o) : Promise.resolve(undefined);
    const runs: Promise<number>[] = [];
    for (let i = 0; i < members.length; i += 2) {
      runs.push(pairRun(members[i], members[i + 1]));
      await sleep(10);
    }
    await Promise.all(runs);
    clearInterval(sampler);
    cpu = {
      wallMs: performance.now() - start.t,
      serverCpuMs: processCpuMs(serverPid) - start.sc,
      serverWaitMs: processWaitMs(serverPid) - start.sw,
      clientCpuMs: processCpuMs() - start.cc,
      clientWaitMs: processWaitMs() - start.cw,
      serverWorstWaitMsPerS: worstWait,
      serverThreadsMs: Object.fromEntries(
        [...threadCpuMs(serverPid)].map(([k, v]) => [k, v - (start.threads.get(k) ?? 0)] as const)
          .filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]),
      ),
      load: loadAverageText(),
    };
    tabs = await tabsRun;
    // What was late has had WAIT_MS more; a second look for each (none when nothing was late: the
    // busy core's CPU and the wait are then spent for nothing).
    if (late.length) await sleep(WAIT_MS);
    for (const key of late) {
      if (arrived.has(key)) continue;
      if (key.startsWith("message:")) lostMessages++;
      else lostReceipts++;
    }
  } finally {
    clearInterval(sampler);
    stopped = true;
    for (const ws of sockets) ws.close();
    burner.stop();
    app.child.kill("SIGTERM");
    await app.child.status;
  }
  const eventCommits = (await eventsVersionIn(`${dir}/app.kv`)) - eventsVersionBefore;
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  return {
    messages,
    lostMessages,
    receipts: receiptsAsked,
    lostReceipts,
    deliveryP50: pct(deliveries, 0.5),
    deliveryP99: pct(deliveries, 0.99),
    receiptP50: pct(receipts, 0.5),
    receiptP99: pct(receipts, 0.99),
    reconnects,
    failedCalls,
    eventCommits,
    cpu: cpu!,
    ...(tabs ? { tabs } : {}),
  };
}

/** Messages each pair of tabs sends at the least, even when opening the tabs took the run's time. */
const TAB_MIN_MESSAGES = 3;

/**
 * Pairs of members converse in Chromium tabs until `until` (performance.now()): one types and
 * sends, the other's tab shows the bubble (timed), shows it read, and the first tab shows the
 * second check (timed); then they swap.
 */
async function inTabs(origin: string, members: Member[], until: number, o: SoakOptions): Promise<SoakResult["tabs"]> {
  // The browser the browser tests use (tests/e2e/browserServer.ts): the clients' tabs, as light as they come.
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_FLAGS });
  const deliveries: number[] = [], receipts: number[] = [], onPages: number[] = [];
  let messages = 0, lost = 0, reads = 0, lostReceipts = 0, cpuMs = NaN, waitMs = NaN;
  try {
    const tab = async (me: Member, other: Member) => {
      const viewport = { width: 390, height: 844 };
      const context = await browser.newContext({ viewport, serviceWorkers: o.serviceWorkers ?? "allow" });
      await context.addCookies([{ name: "sid", value: me.cookie.slice(4), url: origin }]);
      const page = await context.newPage();
      await page.goto(`${origin}/profile/${other.profileId}#chat`);
      await page.getByRole("textbox", { name: "Message" }).waitFor();
      // When, on the machine's clock, the page took Enter and first showed each bubble from the other.
      await page.evaluate(() => {
        const w = window as unknown as { enterAt: number; shown: Map<string, number> };
        const at = () => performance.timeOrigin + performance.now();
        w.shown = new Map();
        document.addEventListener("keydown", (e) => e.key === "Enter" && (w.enterAt = at()), true);
        new MutationObserver(() => {
          for (const b of document.querySelectorAll(".bubble:not(.mine)")) {
            const text = b.textContent ?? "";
            if (!w.shown.has(text)) w.shown.set(text, at());
          }
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      return { page, context };
    };
    const pairs = [];
    for (let i = 0; i < members.length; i += 2) {
      pairs.push([await tab(members[i], members[i + 1]), await tab(members[i + 1], members[i])]);
    }
    const waited = descendantsWaitMs(/chrom/i);
    await Promise.all(pairs.map(async ([a, b], p) => {
      let [from, to] = [a, b];
      // At least TAB_MIN_MESSAGES each, however long the tabs took to open on a busy machine.
      for (let n = 0; n < TAB_MIN_MESSAGES || performance.now() < until; n++) {
        const text = `tab ${p} says hello ${String.fromCharCode(97 + (n % 26))}${n}`;
        const t0 = performance.now();
        await from.page.getByRole("textbox", { name: "Message" }).fill(text);
        await from.page.keyboard.press("Enter");
        messages++;
        try {
          await to.page.locator(".bubble:not(.mine)", { hasText: text }).waitFor({ timeout: WAIT_MS });
          deliveries.push(performance.now() - t0);
        } catch {
          lost++;
        }
        const t1 = performance.now();
        reads++;
        try {
          await from.page.locator(".bubble.mine", { hasText: text }).locator(".checks", { hasText: "✓✓" })
            .waitFor({ timeout: WAIT_MS });
          receipts.push(performance.now() - t1);
        } catch {
          lostReceipts++;
        }
        // The same delivery as the pages saw it, read once the receipt's timing is done.
        const sentAt = await from.page.evaluate(() => (window as unknown as { enterAt: number }).enterAt);
        const shownAt = await to.page.evaluate((t) => {
          for (const [k, v] of (window as unknown as { shown: Map<string, number> }).shown) if (k.includes(t)) return v;
          return NaN;
        }, text);
        if (Number.isFinite(shownAt - sentAt)) onPages.push(shownAt - sentAt);
        await sleep(500 + Math.random() * 1500);
        [from, to] = [to, from];
      }
    }));
    waitMs = descendantsWaitMs(/chrom/i) - waited;
  } finally {
    cpuMs = descendantsCpuMs(/chrom/i);
    await browser.close();
  }
  return {
    messages,
    lost,
    deliveryP99: pct(deliveries, 0.99),
    receipts: reads,
    lostReceipts,
    receiptP99: pct(receipts, 0.99),
    cpuMs,
    waitMs,
    pageDeliveryP99: pct(onPages, 0.99),
  };
}

/** Prints a run's table and its JSON line; records its rows under `name` when it ran a minute or more. */
async function report(o: SoakOptions, r: SoakResult, load: number, name: string): Promise<boolean> {
  const ms = (x: number) => `${x.toFixed(0)} ms`;
  console.log(`| what | count | lost | p50 | p99 |`);
  console.log(`| --- | --- | --- | --- | --- |`);
  console.log(`| messages | ${r.messages} | ${r.lostMessages} | ${ms(r.deliveryP50)} | ${ms(r.deliveryP99)} |`);
  console.log(`| receipts | ${r.receipts} | ${r.lostReceipts} | ${ms(r.receiptP50)} | ${ms(r.receiptP99)} |`);
  if (r.tabs) {
    const t = r.tabs;
    console.log(`| tab messages | ${t.messages} | ${t.lost} | | ${ms(t.deliveryP99)} |`);
    console.log(
      `| tab messages, Enter to bubble on the pages | ${t.messages - t.lost} | | | ${ms(t.pageDeliveryP99)} |`,
    );
    console.log(`| tab receipts | ${t.receipts} | ${t.lostReceipts} | | ${ms(t.receiptP99)} |`);
  }
  console.log(
    `reconnects ${r.reconnects}, failed calls ${r.failedCalls}, commits with events ${r.eventCommits} ` +
      `(${(r.eventCommits / Math.max(1, r.messages)).toFixed(2)} a message), load after ${
        Deno.loadavg()[0].toFixed(2)
      }`,
  );
  const c = r.cpu;
  const share = (x: number) => `${(100 * x / c.wallMs).toFixed(0)} % of a core`;
  // Each message costs the server a POST, its delivery, a read PUT and its receipt.
  const perMessage = (x: number) => `${(x * 1000 / Math.max(1, r.messages)).toFixed(0)} µs a message`;
  console.log(
    `server: ${ms(c.serverCpuMs)} CPU (${share(c.serverCpuMs)}, ${perMessage(c.serverCpuMs)}), ` +
      `${ms(c.serverWaitMs)} waiting for a core (worst second ${ms(c.serverWorstWaitMsPerS)}); ` +
      `clients: ${ms(c.clientCpuMs)} CPU (${share(c.clientCpuMs)}), ${ms(c.clientWaitMs)} waiting; ` +
      (r.tabs
        ? `tabs' Chromium: ${ms(r.tabs.cpuMs)} CPU (${share(r.tabs.cpuMs)}), ${ms(r.tabs.waitMs)} waiting; `
        : "") +
      `over ${ms(c.wallMs)}, load ${c.load}`,
  );
  console.log(
    `server CPU by thread: ${Object.entries(c.serverThreadsMs).map(([k, v]) => `${k} ${ms(v)}`).join(", ")}`,
  );
  console.log(JSON.stringify({ soak: o, result: r }));
  const rows: ResultRow[] = [
    { bench: "soak", metric: "messages lost", unit: "", value: r.lostMessages, goal: 0, better: "lower" },
    { bench: "soak", metric: "receipts lost", unit: "", value: r.lostReceipts, goal: 0, better: "lower" },
    {
      bench: "soak",
      metric: "delivery p99",
      unit: "ms",
      value: Math.round(r.deliveryP99),
      goal: 1000,
      better: "lower",
    },
    { bench: "soak", metric: "receipt p99", unit: "ms", value: Math.round(r.receiptP99), goal: 1000, better: "lower" },
    { bench: "soak", metric: "messages", unit: "", value: r.messages, better: "higher" },
  ];
  if (Number.isFinite(r.cpu.serverCpuMs)) {
    rows.push(
      {
        bench: "soak",
        metric: "server CPU a message (its POST, read PUT and both events)",
        unit: "µs",
        value: Math.round(r.cpu.serverCpuMs * 1000 / Math.max(1, r.messages)),
        better: "lower",
      },
      {
        bench: "soak",
        metric: "server time waiting for a core, share of the run",
        unit: "%",
        value: Math.round(100 * r.cpu.serverWaitMs / r.cpu.wallMs),
        better: "lower",
      },
      {
        bench: "soak",
        metric: "clients' CPU (the soak process), share of a core",
        unit: "%",
        value: Math.round(100 * r.cpu.clientCpuMs / r.cpu.wallMs),
        better: "lower",
      },
    );
    if (r.tabs && Number.isFinite(r.tabs.cpuMs)) {
      rows.push({
        bench: "soak",
        metric: "tabs' CPU (their Chromium processes), share of a core",
        unit: "%",
        value: Math.round(100 * r.tabs.cpuMs / r.cpu.wallMs),
        better: "lower",
      });
    }
  }
  if (r.tabs) {
    rows.push(
      { bench: "soak", metric: "tab messages lost", unit: "", value: r.tabs.lost, goal: 0, better: "lower" },
      { bench: "soak", metric: "tab receipts lost", unit: "", value: r.tabs.lostReceipts, goal: 0, better: "lower" },
      { bench: "soak", metric: "tab delivery p99", unit: "ms", value: Math.round(r.tabs.deliveryP99), better: "lower" },
      {
        bench: "soak",
        metric: "tab delivery p99, Enter to bubble as the pages saw it",
        unit: "ms",
        value: Math.round(r.tabs.pageDeliveryP99),
        better: "lower",
      },
    );
  }
  if (o.seconds >= 60 && !Deno.args.includes("--no-record")) {
    const note =
      `deno task soak: ${o.pairs} pairs on sockets and ${o.browsers ?? 0} in Chromium tabs for ${o.seconds} s, ` +
      `${o.burn} busy process(es)${o.live ? ", sockets on the live listener" : ""}` +
      (o.clientsNice ? `, clients (this process and its tabs) at nice ${o.clientsNice}` : "") +
      (o.root ? `; the server of the checkout before these changes (${o.root})` : "");
    console.log(`recorded ${await recordResults(name, rows, { note, load: [load, Deno.loadavg()[0]] })}`);
  }
  const tabsOk = !r.tabs || (r.tabs.lost === 0 && r.tabs.lostReceipts === 0);
  return r.lostMessages === 0 && r.lostReceipts === 0 && r.failedCalls === 0 && r.deliveryP99 < 1000 &&
    r.receiptP99 < 1000 && tabsOk;
}

if (import.meta.main) {
  const o: SoakOptions = {
    pairs: Number(arg("pairs", "200")),
    seconds: Number(arg("seconds", "0")) || Number(arg("minutes", "10")) * 60,
    burn: Number(arg("burn", "1")),
    live: Deno.args.includes("--live"),
    browsers: Number(arg("browsers", "2")),
    serverProfileDir: arg("server-profile", "") || undefined,
    clientsNice: Number(arg("clients-nice", "0")),
    root: arg("root", "") || undefined,
  };
  const before = arg("before", "");
  const name = arg("name", "soak");
  if (before) {
    // Each run in a process of its own: a run's clients are niced, and a server started by a niced
    // process would be niced too.
    const ours = ["--before", "--rounds", "--name"];
    const rest = Deno.args.filter((a, i, all) => !ours.includes(a) && !ours.includes(all[i - 1]));
    let ok = true;
    for (let round = 1; round <= Number(arg("rounds", "1")); round++) {
      // The two servers swap places each round (the earlier checkout first in odd rounds): the
      // machine's state drifts within a round, so neither gets the same place every time.
      for (const root of round % 2 ? [before, undefined] : [undefined, before]) {
        console.log(`round ${round}: ${root ? `the server before (${root})` : "this checkout's server"}`);
        const args = [
          "run",
          "-A",
          new URL(import.meta.url).pathname,
          ...rest,
          ...(root ? ["--root", root, "--name", `${name}-before`] : ["--name", name]),
        ];
        ok = (await new Deno.Command(Deno.execPath(), { args }).spawn().status).success && ok;
      }
    }
    Deno.exit(ok ? 0 : 1);
  }
  const load = Deno.loadavg()[0];
  console.log(
    `soak: ${o.pairs} pairs for ${o.seconds} s, ${o.burn} busy process(es), load ${load.toFixed(2)}` +
      (o.clientsNice ? `, clients at nice ${o.clientsNice}` : "") + (o.root ? `; the server of ${o.root}` : ""),
  );
  const r = await soak(o);
  Deno.exit((await report(o, r, load, name)) ? 0 : 1);
}
