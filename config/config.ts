/** Server configuration from the environment, read once. Every variable is listed in README.md. */

const env = (name: string) => Deno.env.get(name) || undefined;

export const config = {
  /** Port to listen on. */
  port: Number(env("PORT") ?? 8000),
  /**
   * Port of the live listener (routes/live.ts): pages open their event socket there, at about 10 KB
   * of memory a socket instead of 22 KB on the main port. Unset: sockets on the main port.
   */
  get livePort(): number | null {
    const v = env("LIVE_PORT");
    return v === undefined ? null : Number(v);
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
  /** Comma list of emails that get the ADMIN role. */
  get adminEmails() {
    return (env("ADMIN_EMAILS") ?? "").split(",").map((s) => s.trim().toLowerCase()).filter(Boolean);
  },
  /** Trust X-Forwarded-For / X-Forwarded-Proto from a reverse proxy. */
  trustProxy: env("TRUST_PROXY") === "1",
  /** Map tile URL template for Leaflet. */
  get tileUrl() {
    return env("TILE_URL") ?? "https://tile.openstreetmap.org/{z}/{x}/{y}.png";
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
};
