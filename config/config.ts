/** Server configuration from the environment, read once. Every variable is listed in README.md. */

/** The variables read so far, once `keepConfigReads()` was called (a server process); else null. */
let kept: Map<string, string | undefined> | null = null;

const env = (name: string): string | undefined => {
  if (!kept) return Deno.env.get(name) || undefined;
  if (kept.has(name)) return kept.get(name);
  const value = Deno.env.get(name) || undefined;
  kept.set(name, value);
  return value;
};

/**
 * From now on each variable is read from the environment once, then kept: a server process calls
 * it as it starts (its environment does not change while it runs, and several variables are read
 * on every request, each read a call into the runtime). Tests that change the environment while
 * they run never call it, so they see each change.
 */
export function keepConfigReads(): void {
  kept ??= new Map();
}

export const config = {
  /** Port to listen on. */
  port: Number(env("PORT") ?? 8000),
  /**
   * The address the main port binds (default every address). Behind a proxy on the same host, bind
   * it to loopback (`127.0.0.1`) so that only the proxy reaches the app: a direct caller could send
   * any X-Forwarded-For, and `TRUST_PROXY=N` believes it.
   */
  get host(): string {
    return env("HOST") ?? "0.0.0.0";
  },
  /**
   * Port of the live listener (routes/live.ts): pages open their event socket there, at about 10 KB
   * of memory a socket instead of 22 KB on the main port. Unset: sockets on the main port.
   */
  get livePort(): number | null {
    const v = env("LIVE_PORT");
    return v === undefined ? null : Number(v);
  },
  /**
   * The address the live listener binds (default: HOST's). Behind a proxy on the same host that
   * listens on the public address, bind the app's listener to a private one (127.0.0.1).
   */
  get liveHost(): string {
    return env("LIVE_HOST") ?? this.host;
  },
  /**
   * The port pages open their event socket on, when it differs from LIVE_PORT (a proxy in front
   * listens on it and passes to LIVE_PORT). Unset: LIVE_PORT itself.
   */
  get livePublicPort(): number | null {
    return positive(env("LIVE_PUBLIC_PORT")) ?? null;
  },
  /** Remote KV (KV Connect) URL; when set it wins over KV_PATH. */
  get kvUrl() {
    return env("KV_URL");
  },
  /** Local KV file. */
  get kvPath() {
    return env("KV_PATH") ?? "./data/app.kv";
  },
  /** SMTP URL for outgoing mail (smtp://user:pass@host:port); without it mail goes to the dev outbox. */
  get smtpUrl() {
    return env("SMTP_URL");
  },
  /** Sender address of outgoing mail. */
  mailFrom: env("MAIL_FROM") ?? "Lambda <no-reply@localhost>",
  /** The public origin used in links sent by mail (e.g. https://example.com). */
  get publicOrigin() {
    return env("PUBLIC_ORIGIN");
  },
  /**
   * Origins (scheme://host:port) push endpoints may have beyond the browsers' push services
   * (kv/push.ts): a self-hosted push service, or a test's local one. Comma list; unset: none.
   */
  get pushExtraOrigins(): string[] {
    return (env("PUSH_EXTRA_ORIGINS") ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  },
  /** The VAPID key pair (base64url, as `web-push generate-vapid-keys` prints); unset: generated once and kept in KV. */
  get vapidKeys(): { publicKey: string; privateKey: string } | null {
    const publicKey = env("VAPID_PUBLIC_KEY"), privateKey = env("VAPID_PRIVATE_KEY");
    return publicKey && privateKey ? { publicKey, privateKey } : null;
  },
  /**
   * Who push services may contact about this server's pushes (the VAPID token's `sub`): a
   * `mailto:` address or an https URL. Default: PUBLIC_ORIGIN when it is https, else a mailto of
   * MAIL_FROM's address.
   */
  get vapidSubject(): string {
    const set = env("VAPID_SUBJECT");
    if (set) return set;
    const origin = env("PUBLIC_ORIGIN");
    if (origin?.startsWith("https://")) return origin;
    const mail = /<([^>]+)>/.exec(this.mailFrom)?.[1] ?? this.mailFrom;
    return `mailto:${mail.trim()}`;
  },
  /** Comma list of emails that get the ADMIN role. */
  get adminEmails() {
    return (env("ADMIN_EMAILS") ?? "").split(",").map((s) => s.trim().toLowerCase()).filter(Boolean);
  },
  /**
   * Which reverse proxies are trusted to name the client (X-Forwarded-For, -Proto): `N`, the
   * number of proxies in front of the app (the client is the Nth address from the right), or a
   * comma list of the proxies' own addresses. Unset, `0` or unreadable: none, the connection's
   * address is the client's.
   */
  get trustProxy(): ProxyTrust | null {
    return proxyTrust(env("TRUST_PROXY"));
  },
  /** How long a request body may take to arrive, from its headers to its last byte (408 past it). */
  get bodyTimeoutMs(): number {
    return positive(env("BODY_TIMEOUT_MS")) ?? 10_000;
  },
  /**
   * Heavy discovery views (100 members or more: a map's box, a sector, a long list) a process makes
   * at once; the others wait their turn (decision 0133). `0`: no turns.
   */
  get heavyViewsAtOnce(): number {
    return env("HEAVY_VIEWS_AT_ONCE") === "0" ? 0 : positive(env("HEAVY_VIEWS_AT_ONCE")) ?? 4;
  },
  /**
   * Megabytes of discovery answers a process keeps compressed for the views members ask again (the
   * map refetches every 15 s; decision 0192). `0`: none kept.
   */
  get keptAnswersMb(): number {
    return env("KEPT_ANSWERS_MB") === "0" ? 0 : positive(env("KEPT_ANSWERS_MB")) ?? 64;
  },
  /** Requests one client address may have open at once (event streams included); past it, 429. */
  get maxOpenPerAddress(): number {
    return positive(env("MAX_OPEN_PER_ADDRESS")) ?? 256;
  },
  /**
   * Live event feeds (sockets and streams) one client address may hold at once; past it the next
   * is refused. Many members can share one address (a carrier's NAT): raise it behind one.
   */
  get maxFeedsPerAddress(): number {
    return positive(env("MAX_FEEDS_PER_ADDRESS")) ?? 100;
  },
  /**
   * The upstream tile server's URL template ({z} {x} {y}, and Leaflet's {s} {-y} {r}). The server
   * fetches tiles from it (routes/tiles.ts); browsers ask this app's /tiles/{z}/{x}/{y}, never it.
   */
  get tileUrl() {
    return env("TILE_URL") ?? "https://tile.openstreetmap.org/{z}/{x}/{y}.png";
  },
  /** Where fetched tiles are kept on disk. */
  get tileCacheDir() {
    return env("TILE_CACHE_DIR") ?? "./data/tiles";
  },
  /** The tile cache's size bound, MB; the least recently used tiles go past it. */
  get tileCacheMb() {
    const mb = Number(env("TILE_CACHE_MB") ?? 512);
    return Number.isFinite(mb) && mb >= 0 ? mb : 512;
  },
  /** The tiles' attribution, HTML shown on the map (the tile host's licence asks for it). */
  get tileAttribution() {
    return env("TILE_ATTRIBUTION") ??
      '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';
  },
  /**
   * Web processes serving one port (main.ts supervises them): default one a core. `1`: this process
   * serves alone.
   */
  get webInstances(): number {
    return positive(env("WEB_INSTANCES")) ?? navigator.hardwareConcurrency ?? 1;
  },
  /** This process's number among the supervised web instances (set by the supervisor), else null. */
  get webInstance(): number | null {
    const v = env("WEB_INSTANCE");
    return v === undefined ? null : Number(v);
  },
  /** The pseudo-locale en-XA may be asked for with a `lang` cookie (development and tests only, domain/i18n.ts). */
  get pseudoLocale(): boolean {
    return env("PSEUDO_LOCALE") === "1";
  },
  /** Run the job workers inside the web process (default) or not (WORKERS=0, use `deno task worker`). */
  workersInProcess: env("WORKERS") !== "0",
  /** `json`: one JSON object per log line; anything else: text lines. */
  get logFormat() {
    return env("LOG_FORMAT") === "json" ? "json" : "text";
  },
  /** Where the quick exit of discreet mode goes: a neutral page, never this app. */
  get quickExitUrl() {
    return env("QUICK_EXIT_URL") ?? "https://www.google.com/";
  },
  /** Bearer token that opens GET /metrics to non-loopback callers (unset: loopback only). */
  get metricsToken() {
    return env("METRICS_TOKEN");
  },
  /** Log every request line (default on; LOG_REQUESTS=0 turns it off). */
  get logRequests() {
    return env("LOG_REQUESTS") !== "0";
  },
  /**
   * The longest random delay before a health notice becomes visible (ms; default a day): the timing
   * must not point at its sender. Tests shorten it.
   */
  get healthNoticeMaxDelayMs() {
    const v = Number(env("HEALTH_NOTICE_MAX_DELAY_MS"));
    return Number.isFinite(v) && v >= 0 && env("HEALTH_NOTICE_MAX_DELAY_MS") !== undefined ? v : 24 * 3_600_000;
  },
  /**
   * How often the health reports' monthly counts are written (ms; default an hour): every sender of
   * the period in one commit, at the clock's multiples of the period, so no count is written when
   * its report is sent (kv/healthSpends.ts). At least a second.
   */
  get healthSpendFlushMs() {
    const v = Number(env("HEALTH_SPEND_FLUSH_MS"));
    return Number.isFinite(v) && v >= 1000 && env("HEALTH_SPEND_FLUSH_MS") !== undefined ? v : 3_600_000;
  },
};

/** The trusted proxies: a count of hops, or the proxies' addresses. */
export type ProxyTrust = { hops: number } | { addresses: ReadonlySet<string> };

function positive(v: string | undefined): number | undefined {
  const n = v === undefined ? NaN : Number(v);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

let parsed: { raw: string | undefined; trust: ProxyTrust | null } | null = null;

/** Reads TRUST_PROXY (kept until the variable changes: it is read on every request). */
function proxyTrust(raw: string | undefined): ProxyTrust | null {
  if (parsed && parsed.raw === raw) return parsed.trust;
  let trust: ProxyTrust | null = null;
  const v = raw?.trim() ?? "";
  if (/^\d+$/.test(v)) {
    trust = Number(v) > 0 ? { hops: Number(v) } : null;
  } else if (v) {
    const addresses = new Set(v.split(",").map((a) => normalizeAddress(a)).filter(Boolean));
    trust = addresses.size ? { addresses } : null;
  }
  parsed = { raw, trust };
  return trust;
}

/** 127.0.0.0/8, ::1, `localhost`, or no network at all ("local": an in-process call). */
export function isLoopbackAddress(address: string): boolean {
  const a = normalizeAddress(address);
  return a === "local" || a === "localhost" || a === "::1" || /^127\.\d+\.\d+\.\d+$/.test(a);
}

/**
 * What to tell the operator at start when the main port may be reached around the trusted proxies,
 * else null. With a count (`TRUST_PROXY=N`) any caller's X-Forwarded-For is believed, so a port
 * bound beyond loopback must be reachable only through the proxies (a private network, a
 * firewall). With a list of proxies that all run on this host, binding beyond loopback serves no
 * proxy and only exposes the port. A list that names other hosts needs the port open to them, and
 * a direct caller is taken at its own address: nothing to say.
 */
export function proxyExposureWarning(host: string, trust: ProxyTrust | null): string | null {
  if (!trust || isLoopbackAddress(host)) return null;
  if ("hops" in trust) {
    return `TRUST_PROXY=${trust.hops} believes the X-Forwarded-For of any caller, and HOST=${host} ` +
      "lets callers reach this port without the proxy: bind HOST=127.0.0.1 (proxy on this host), make the " +
      "port reachable only from the proxies, or list the proxies' addresses in TRUST_PROXY.";
  }
  if ([...trust.addresses].every(isLoopbackAddress)) {
    return `TRUST_PROXY names proxies on this host only, yet HOST=${host} opens this port beyond it: ` +
      "bind HOST=127.0.0.1.";
  }
  return null;
}

const PLAIN_IPV4 = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/**
 * One address as proxies and sockets write it, in one spelling: no brackets or port, lower case,
 * an IPv4 address mapped into IPv6 as the IPv4 address.
 */
export function normalizeAddress(a: string): string {
  // The common case, a plain IPv4 address, is already in its normal form.
  if (PLAIN_IPV4.test(a)) return a;
  let s = a.trim().toLowerCase().replace(/^"|"$/g, "");
  const bracketed = s.match(/^\[([^\]]+)\](?::\d+)?$/);
  if (bracketed) s = bracketed[1];
  else if (/^[\d.]+:\d+$/.test(s)) s = s.replace(/:\d+$/, "");
  return s.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, "$1");
}
