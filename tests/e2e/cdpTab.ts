/**
 * One Chromium tab driven over the DevTools protocol through its tab target, for what Playwright
 * cannot show: Chromium refuses to prerender in a page a DevTools client attached to directly
 * ("PrerenderingDisabledByDevTools"), and Playwright attaches so to every page. Attached through
 * the tab, the browser speculates as it does for a member, and the prerendered page becomes the
 * tab's page when it is activated.
 */

import { CHROMIUM_FLAGS, chromiumPath } from "./harness.ts";

type Message = {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  sessionId?: string;
  result?: unknown;
  error?: { message: string };
};
type TargetInfo = { targetId: string; type: string; subtype?: string; url: string };

export interface Tab {
  /** Evaluates `expression` (awaited when a promise) in the page the tab shows, by value. */
  evaluate<T>(expression: string): Promise<T>;
  /** Waits until `expression` is true in the page the tab shows (`ms` at most, 10 s unless given, then throws). */
  waitFor(expression: string, ms?: number): Promise<void>;
  /** Loads `url` in the tab and waits for the load event of the document it ends on (after redirects). */
  navigate(url: string): Promise<void>;
  /** Taps (touch start and end) at a point of the viewport, in CSS pixels. */
  tap(x: number, y: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A new headless Chromium with one tab of `width`×`height` (a phone: mobile, touch) with its CPU
 * throttled `cpuRate` times, and `initScript` run at the start of every document, prerendered
 * ones included. The full browser, not the headless shell: what it speculates (prefetch,
 * prerender) is a member's browser's, and the tap bench's figures stay comparable across runs.
 */
export async function openTab(
  opts: { width: number; height: number; cpuRate: number; initScript?: string },
): Promise<Tab> {
  const dir = await Deno.makeTempDir({ prefix: "cdp-tab-" });
  const chromium = new Deno.Command(chromiumPath({ full: true }), {
    args: [
      ...CHROMIUM_FLAGS,
      "--remote-debugging-port=0",
      `--user-data-dir=${dir}`,
      `--window-size=${opts.width},${opts.height}`,
      "about:blank",
    ],
    stdout: "null",
    stderr: "null",
  }).spawn();
  let port = "";
  for (let i = 0; i < 200 && !port; i++) {
    await new Promise((r) => setTimeout(r, 50));
    port = await Deno.readTextFile(`${dir}/DevToolsActivePort`).then((t) => t.split("\n")[0], () => "");
  }
  if (!port) throw new Error("Chromium did not open its DevTools port");
  const { webSocketDebuggerUrl } = await (await fetch(`http://127.0.0.1:${port}/json/version`)).json();
  const ws = new WebSocket(webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });

  let lastId = 0;
  const waiting = new Map<
    number,
    { sessionId?: string; resolve: (m: Message) => void; reject: (e: Error) => void }
  >();
  /** The tab's page targets by session: its page, and the prerendered ones until one is activated. */
  const pages = new Map<string, TargetInfo>();
  const send = <T = Record<string, unknown>>(method: string, params: object = {}, sessionId?: string) =>
    new Promise<T>((resolve, reject) => {
      const id = ++lastId;
      waiting.set(id, {
        sessionId,
        resolve: (m) => m.error ? reject(new Error(`${method}: ${m.error.message}`)) : resolve(m.result as T),
        reject,
      });
      ws.send(JSON.stringify({ id, method, params, sessionId }));
    });

  /**
   * Each page of the tab gets the phone and the throttling before its first script runs: a page
   * waiting for the debugger answers nothing until it runs, so the commands are queued, then it runs.
   */
  const prepare = (sessionId: string) =>
    Promise.all([
      send("Emulation.setDeviceMetricsOverride", {
        width: opts.width,
        height: opts.height,
        deviceScaleFactor: 1,
        mobile: true,
      }, sessionId),
      send("Emulation.setTouchEmulationEnabled", { enabled: true, maxTouchPoints: 5 }, sessionId),
      send("Emulation.setCPUThrottlingRate", { rate: opts.cpuRate }, sessionId),
      opts.initScript && send("Page.addScriptToEvaluateOnNewDocument", { source: opts.initScript }, sessionId),
      send("Runtime.runIfWaitingForDebugger", {}, sessionId),
    ]).catch(() => {/* a prerender dropped while it was being prepared */});
  ws.onmessage = (e) => {
    const m: Message = JSON.parse(e.data);
    if (m.id !== undefined) {
      waiting.get(m.id)?.resolve(m);
      waiting.delete(m.id);
      return;
    }
    const p = m.params ?? {};
    if (m.method === "Target.attachedToTarget") {
      const info = p.targetInfo as TargetInfo, sessionId = p.sessionId as string;
      if (info.type !== "page") {
        send("Runtime.runIfWaitingForDebugger", {}, sessionId).catch(() => {});
        return;
      }
      pages.set(sessionId, info);
      prepare(sessionId);
    } else if (m.method === "Target.detachedFromTarget") {
      // A page left for another process (or a prerender dropped): what it was asked gets no answer.
      pages.delete(p.sessionId as string);
      for (const [id, w] of waiting) {
        if (w.sessionId !== p.sessionId) continue;
        waiting.delete(id);
        w.reject(new Error("the page is gone"));
      }
    } else if (m.method === "Target.targetInfoChanged") {
      const info = p.targetInfo as TargetInfo;
      for (const [s, old] of pages) if (old.targetId === info.targetId) pages.set(s, info);
    }
  };

  const { targetInfos } = await send<{ targetInfos: TargetInfo[] }>("Target.getTargets", {
    filter: [{ type: "tab" }],
  });
  const { sessionId: tabSession } = await send<{ sessionId: string }>("Target.attachToTarget", {
    targetId: targetInfos[0].targetId,
    flatten: true,
  });
  // Discovery tells a prerendered page's activation (its target is no longer a prerender).
  await send("Target.setDiscoverTargets", { discover: true });
  await send("Target.setAutoAttach", { autoAttach: true, waitForDebuggerOnStart: true, flatten: true }, tabSession);

  /** The session of the page the tab shows (not a prerender). */
  const shown = async (): Promise<string> => {
    for (let i = 0; i < 400; i++) {
      const s = [...pages].find(([, info]) => info.subtype !== "prerender")?.[0];
      if (s) return s;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error("the tab shows no page");
  };
  const evaluate = async <T>(expression: string): Promise<T> => {
    const r = await send<{ result: { value: T }; exceptionDetails?: { text: string } }>("Runtime.evaluate", {
      expression,
      awaitPromise: true,
      returnByValue: true,
    }, await shown());
    if (r.exceptionDetails) throw new Error(`${expression}: ${JSON.stringify(r.exceptionDetails)}`);
    return r.result.value;
  };

  const waitFor = async (expression: string, ms = 10_000): Promise<void> => {
    for (const end = Date.now() + ms; Date.now() < end;) {
      if (await evaluate<boolean>(expression).catch(() => false)) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`never true: ${expression}`);
  };

  return {
    evaluate,
    waitFor,
    async navigate(url) {
      const startedAt = Date.now();
      await send("Page.navigate", { url }, await shown());
      await waitFor(`performance.timeOrigin >= ${startedAt} && document.readyState === "complete"`, 60_000);
    },
    async tap(x, y) {
      const s = await shown();
      await send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x, y }] }, s);
      await send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] }, s);
    },
    async close() {
      ws.close();
      chromium.kill();
      await chromium.status;
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}
