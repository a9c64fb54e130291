/**
 * A V8 CPU profile (`deno run --cpu-prof`, a `.cpuprofile` file) summed up: where a window of its
 * samples went, by function (self and inclusive time) and by the app's parts (session, limits,
 * routing, validation, telemetry, headers, compression, the route's own work, V8's garbage
 * collector, the runtime), so a bench can keep what it found beside its figures in bench/results.
 */

/** The parts of a `.cpuprofile` file read here. */
export interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** One line of a summary: a function or a part, its time in ms and its share of the window. */
export interface ProfileLine {
  name: string;
  ms: number;
  share: number;
}

/** A profile's window summed up. */
export interface ProfileSummary {
  /** Milliseconds of samples in the window, and of those not idle. */
  windowMs: number;
  busyMs: number;
  /** Busy time by part of the app (each sample counted once, at the first part its stack meets from the top). */
  parts: ProfileLine[];
  /** Functions by self time (where the samples landed). */
  self: ProfileLine[];
  /** Functions of the app's own files by inclusive time (their callees counted in). */
  inclusive: ProfileLine[];
}

/**
 * Which part of the app a file is, from its URL; the first rule that matches wins, and a sample
 * is counted for the innermost frame (nearest the top of its stack) that names a part.
 */
const PARTS: [RegExp, string][] = [
  [/routes\/telemetry\.ts|prom-client|@opentelemetry/, "telemetry (request id, metrics, log)"],
  [/secure-headers/, "security headers"],
  [/hono\/dist\/.*compress|offThreadGzip|CompressionStream/, "compression"],
  [/kv\/sessions\.ts|kv\/kept\.ts|kv\/roles\.ts|routes\/middleware\.ts|hono\/dist\/.*cookie/, "session and middleware"],
  [/kv\/ratelimit\.ts/, "rate limits"],
  [/routes\/validate\.ts|routes\/bodylimit\.ts|\/zod\//, "validation and body limit"],
  [/kv\/|domain\/|routes\/api\//, "the route's own work (kv, domain, handler)"],
  [/hono\/dist\//, "routing and Hono's context"],
  [/^ext:|^node:|deno_/, "Deno runtime (serving, streams, timers)"],
];

/** The part of a frame, or null for a frame of no known file. */
function partOf(url: string, fn: string): string | null {
  if (fn === "(garbage collector)") return "garbage collection";
  if (fn === "(program)") return "V8 and native code (program)";
  for (const [re, part] of PARTS) if (re.test(url)) return part;
  return null;
}

/** A frame's printed name: function, file (without the machine's folders) and line. */
function frameName(f: CpuProfile["nodes"][number]["callFrame"]): string {
  const file = f.url.replace(/^file:\/\/.*?\/(node_modules\/\.deno\/|wt\/[^/]+\/|main\/)?/, "").replace(
    /^[^/]+\/node_modules\//,
    "",
  );
  return `${f.functionName || "(anonymous)"}${file ? ` ${file}:${f.lineNumber + 1}` : ""}`;
}

/**
 * Sums the samples of `profile` taken in its last `windowMs` milliseconds (the load a bench drove
 * just before stopping the process; the start-up before it is left out), `top` lines of each list.
 */
export function summariseProfile(profile: CpuProfile, windowMs: number, top = 25): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const from = profile.endTime - windowMs * 1000;
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const parts = new Map<string, number>();
  let t = profile.startTime;
  let window = 0, busy = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    if (t < from) continue;
    // A sample stands for the time until the next one.
    const us = profile.timeDeltas[i + 1] ?? 0;
    window += us;
    const node = byId.get(profile.samples[i])!;
    if (node.callFrame.functionName === "(idle)") continue;
    busy += us;
    const name = frameName(node.callFrame);
    self.set(name, (self.get(name) ?? 0) + us);
    const seen = new Set<string>();
    let part: string | null = null;
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const f = byId.get(id)!.callFrame;
      part ??= partOf(f.url, f.functionName);
      if (!/^file:/.test(f.url) || /node_modules/.test(f.url)) continue;
      const n = frameName(f);
      if (!seen.has(n)) {
        seen.add(n);
        inclusive.set(n, (inclusive.get(n) ?? 0) + us);
      }
    }
    part ??= "other";
    parts.set(part, (parts.get(part) ?? 0) + us);
  }
  const lines = (m: Map<string, number>) =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([name, us]) => ({
      name,
      ms: Math.round(us / 100) / 10,
      share: busy ? Math.round(1000 * us / busy) / 1000 : 0,
    }));
  return {
    windowMs: Math.round(window / 1000),
    busyMs: Math.round(busy / 1000),
    parts: lines(parts),
    self: lines(self),
    inclusive: lines(inclusive),
  };
}
