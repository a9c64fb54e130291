import assert from "node:assert/strict";
import { pause } from "../tests/wait.ts";
import { join } from "node:path";
import { Hono } from "hono";
import { testApp } from "../tests/api.ts";
import type { AppEnv } from "./env.ts";
import { session } from "./middleware.ts";
import { tileRoutes } from "./tiles.ts";
import { flushLimitCounts, hitsOf, LIMITS } from "../kv/ratelimit.ts";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const TILE_BYTES = 200;

/** A tile of the local tile server: a PNG signature, then the tile's address, 200 bytes in all. */
function tileOf(path: string): Uint8Array<ArrayBuffer> {
  const b = new Uint8Array(TILE_BYTES);
  b.set(PNG_SIGNATURE);
  b.set(new TextEncoder().encode(path), PNG_SIGNATURE.length);
  return b;
}

type Mode = "ok" | "fail" | "not-image" | "missing" | "slow" | "hang";

/** A local tile server that records every request it gets, answering as `mode` says. */
function tileServer() {
  const seen: { path: string; headers: Headers; from: string }[] = [];
  let mode: Mode = "ok";
  const hung = Promise.withResolvers<void>();
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (req, info) => {
    const path = new URL(req.url).pathname;
    seen.push({ path, headers: req.headers, from: (info.remoteAddr as Deno.NetAddr).hostname });
    if (mode === "fail") return new Response("down", { status: 503 });
    if (mode === "missing") return new Response("none", { status: 404 });
    if (mode === "not-image") return new Response("<html>login</html>", { headers: { "content-type": "text/html" } });
    // sleep-ok: a tile server that takes its time, so six requests for one tile overlap.
    if (mode === "slow") await pause(150);
    // Hangs until the test ends: longer than any timeout.
    if (mode === "hang") await hung.promise;
    return new Response(tileOf(path), { headers: { "content-type": "image/png" } });
  });
  return {
    seen,
    setMode: (m: Mode) => mode = m,
    template: `http://127.0.0.1:${server.addr.port}/{z}/{x}/{y}.png`,
    close: () => (hung.resolve(), server.shutdown()),
  };
}

/** The app with a member, a tile server as TILE_URL and a fresh cache folder of `mb` MB. */
async function setUp(mb = 1) {
  const t = await testApp();
  const upstream = tileServer();
  const dir = await Deno.makeTempDir({ prefix: "tiles-test-" });
  Deno.env.set("TILE_URL", upstream.template);
  Deno.env.set("TILE_CACHE_DIR", dir);
  Deno.env.set("TILE_CACHE_MB", String(mb));
  const viewer = await t.member();
  const get = (path: string, init: { cookie?: string; address?: string; headers?: Record<string, string> } = {}) =>
    t.app.request(
      "http://localhost" + path,
      { headers: { ...init.headers, ...(init.cookie ? { cookie: init.cookie } : {}) } },
      init.address ? { remoteAddr: { hostname: init.address, port: 40000, transport: "tcp" } } : undefined,
    );
  return {
    t,
    upstream,
    dir,
    viewer,
    get,
    async close() {
      await upstream.close();
      t.close();
      Deno.env.delete("TILE_URL");
      Deno.env.delete("TILE_CACHE_DIR");
      Deno.env.delete("TILE_CACHE_MB");
      await Deno.remove(dir, { recursive: true });
    },
  };
}

const exists = (path: string) => Deno.stat(path).then(() => true, () => false);

/** Every cached tile file under the folder, with its size. */
async function cachedFiles(dir: string): Promise<{ path: string; size: number }[]> {
  const out: { path: string; size: number }[] = [];
  for await (const z of Deno.readDir(dir)) {
    for await (const x of Deno.readDir(join(dir, z.name))) {
      for await (const y of Deno.readDir(join(dir, z.name, x.name))) {
        const path = join(dir, z.name, x.name, y.name);
        out.push({ path: `${z.name}/${x.name}/${y.name}`, size: (await Deno.stat(path)).size });
      }
    }
  }
  return out;
}

Deno.test("tiles - a tile is served from the tile server once, then from the disk, with a day of browser cache", async () => {
  const s = await setUp();
  try {
    const first = await s.get("/tiles/13/1543/3283", { cookie: s.viewer.cookie });
    assert.equal(first.status, 200);
    assert.equal(first.headers.get("content-type"), "image/png");
    assert.equal(first.headers.get("cache-control"), "public, max-age=86400");
    assert.deepEqual(new Uint8Array(await first.arrayBuffer()), tileOf("/13/1543/3283.png"));
    assert.deepEqual(s.upstream.seen.map((r) => r.path), ["/13/1543/3283.png"]);
    const file = join(s.dir, "13", "1543", "3283.tile");
    assert.deepEqual(await Deno.readFile(file), tileOf("/13/1543/3283.png"), "kept on disk");

    const second = await s.get("/tiles/13/1543/3283", { cookie: s.viewer.cookie });
    assert.equal(second.status, 200);
    assert.deepEqual(new Uint8Array(await second.arrayBuffer()), tileOf("/13/1543/3283.png"));
    assert.equal(s.upstream.seen.length, 1, "the second answer came from the disk");

    // Concurrent requests for a tile not kept yet: one fetch.
    s.upstream.setMode("slow");
    const all = await Promise.all(
      Array.from({ length: 6 }, () => s.get("/tiles/14/3086/6566", { cookie: s.viewer.cookie })),
    );
    assert.deepEqual(all.map((r) => r.status), [200, 200, 200, 200, 200, 200]);
    for (const r of all) assert.deepEqual(new Uint8Array(await r.arrayBuffer()), tileOf("/14/3086/6566.png"));
    assert.equal(s.upstream.seen.filter((r) => r.path === "/14/3086/6566.png").length, 1, "fetched once");
  } finally {
    await s.close();
  }
});

Deno.test("tiles - the tile server never sees the member: no cookie, no forwarded or client address, the app's User-Agent", async () => {
  const s = await setUp();
  try {
    const r = await s.get("/tiles/5/6/12", {
      cookie: s.viewer.cookie,
      address: "198.51.100.23",
      headers: {
        "x-forwarded-for": "203.0.113.7",
        "x-real-ip": "203.0.113.7",
        forwarded: "for=203.0.113.7",
        "user-agent": "Mozilla/5.0 (iPhone) member's browser",
        "accept-language": "es-MX",
        referer: "http://localhost/search/map#profileId=abc&lat=33.4&lng=-112.0",
      },
    });
    assert.equal(r.status, 200);
    await r.body?.cancel();
    assert.equal(s.upstream.seen.length, 1);
    const { headers, from } = s.upstream.seen[0];
    assert.equal(headers.get("cookie"), null);
    assert.equal(headers.get("x-forwarded-for"), null);
    assert.equal(headers.get("x-real-ip"), null);
    assert.equal(headers.get("forwarded"), null);
    assert.equal(headers.get("referer"), null);
    assert.ok(!headers.get("accept-language")?.includes("es"), "not the member's language");
    assert.match(headers.get("user-agent") ?? "", /^Lambda-map-tiles\/1\.0 /);
    const sent = [...headers].map(([k, v]) => `${k}: ${v}`).join("\n");
    const member = [
      "198.51.100.23",
      "203.0.113.7",
      s.viewer.cookie.split("=")[1],
      s.viewer.profileId,
      "33.4",
      "iPhone",
    ];
    for (const secret of member) {
      assert.ok(!sent.includes(secret), `the tile server got ${secret}:\n${sent}`);
    }
    assert.equal(from, "127.0.0.1", "from the app's own connection");
  } finally {
    await s.close();
  }
});

Deno.test("tiles - a bad address is 400, another path 404, a visitor 401, in the API's error shape; the tile server is not asked", async () => {
  const s = await setUp();
  try {
    const cookie = s.viewer.cookie;
    const bad = ["/tiles/20/0/0", "/tiles/2/4/0", "/tiles/2/0/4", "/tiles/a/0/0", "/tiles/-1/0/0", "/tiles/1.5/0/0"];
    for (const p of [...bad, "/tiles/1/0/1e3", "/tiles/99999999/0/0", "/tiles/0/0/0x0", "/tiles/19/524288/0"]) {
      const r = await s.get(p, { cookie });
      assert.equal(r.status, 400, p);
      assert.equal((await r.json()).error.code, "bad_request", p);
    }
    for (const p of ["/tiles/1/0", "/tiles/1/0/0/0", "/tiles", "/tiles/1/0/0.png"]) {
      const r = await s.get(p, { cookie });
      assert.ok(r.status === 404 || r.status === 400, `${p}: ${r.status}`);
      const body = await r.json();
      assert.equal(typeof body.error.code, "string", p);
      assert.equal(typeof body.error.message, "string", p);
    }
    const visitor = await s.get("/tiles/0/0/0");
    assert.equal(visitor.status, 401);
    assert.equal((await visitor.json()).error.code, "unauthorized");
    assert.equal(s.upstream.seen.length, 0);
    // The largest valid address.
    const corner = await s.get("/tiles/19/524287/524287", { cookie });
    assert.equal(corner.status, 200);
    await corner.body?.cancel();
  } finally {
    await s.close();
  }
});

Deno.test("tiles - a failing tile server gives 502 or 504 at once, never 5xx of ours, and nothing is kept", async () => {
  const s = await setUp();
  try {
    const cookie = s.viewer.cookie;
    const check = async (path: string, status: number, code: string) => {
      const began = performance.now();
      const r = await s.get(path, { cookie });
      assert.equal(r.status, status, path);
      assert.equal(r.headers.get("cache-control"), "no-store", "the browser keeps no failure");
      assert.equal((await r.json()).error.code, code);
      assert.ok(performance.now() - began < 2_000, "answered quickly");
      assert.equal(await exists(join(s.dir, ...path.split("/").slice(2)) + ".tile"), false, "not kept");
    };
    s.upstream.setMode("fail");
    await check("/tiles/3/1/2", 502, "bad_gateway");
    s.upstream.setMode("not-image");
    await check("/tiles/3/1/2", 502, "bad_gateway");
    s.upstream.setMode("missing");
    await check("/tiles/3/1/2", 404, "not_found");
    // Up again: the tile is fetched again, not a kept failure.
    s.upstream.setMode("ok");
    const r = await s.get("/tiles/3/1/2", { cookie });
    assert.equal(r.status, 200);
    await r.body?.cancel();
    // Down: nothing listens at the address any more.
    await s.upstream.close();
    await check("/tiles/3/1/3", 502, "bad_gateway");
  } finally {
    await s.close().catch(() => {});
  }
});

Deno.test("tiles - a tile server slower than the timeout gives 504", async () => {
  const s = await setUp();
  try {
    // The same middleware as the app, with a short timeout.
    const app = new Hono<AppEnv>().use(session()).route("/tiles", tileRoutes({ fetchTimeoutMs: 200 }));
    s.upstream.setMode("hang");
    const began = performance.now();
    const r = await app.request("http://localhost/tiles/4/2/2", { headers: { cookie: s.viewer.cookie } });
    assert.equal(r.status, 504);
    assert.equal((await r.json()).error.code, "gateway_timeout");
    assert.ok(performance.now() - began < 900, "within the timeout, not the tile server's second");
    assert.equal(await exists(join(s.dir, "4", "2", "2.tile")), false);
  } finally {
    await s.close();
  }
});

Deno.test("tiles - the disk cache stays within its bound, the least recently used tile going first", async () => {
  // Room for three and a half tiles.
  const bound = Math.floor(3.5 * TILE_BYTES);
  const s = await setUp(bound / (1024 * 1024));
  try {
    const cookie = s.viewer.cookie;
    const fetchTile = async (x: number) => {
      const r = await s.get(`/tiles/6/${x}/9`, { cookie });
      assert.equal(r.status, 200);
      await r.body?.cancel();
    };
    for (const x of [1, 2, 3]) await fetchTile(x);
    assert.deepEqual((await cachedFiles(s.dir)).map((f) => f.path).sort(), ["6/1/9.tile", "6/2/9.tile", "6/3/9.tile"]);
    await fetchTile(1); // used again: now the most recent
    assert.equal(s.upstream.seen.length, 3, "from the disk");
    await fetchTile(4); // over the bound: 2 goes, the least recently used
    assert.deepEqual((await cachedFiles(s.dir)).map((f) => f.path).sort(), ["6/1/9.tile", "6/3/9.tile", "6/4/9.tile"]);
    for (const x of [5, 6, 7, 8, 9]) await fetchTile(x);
    const files = await cachedFiles(s.dir);
    assert.ok(files.reduce((a, f) => a + f.size, 0) <= bound, "within the bound");
    assert.deepEqual(files.map((f) => f.path).sort(), ["6/7/9.tile", "6/8/9.tile", "6/9/9.tile"]);
    // No temporary file left behind.
    assert.ok(files.every((f) => f.path.endsWith(".tile")));
  } finally {
    await s.close();
  }
});

Deno.test("tiles - every tile asked counts against the asking address's limit, a kept one too", async () => {
  const s = await setUp();
  try {
    s.t.alignClock(LIMITS.tilesByAddress.windowMs);
    for (const x of [0, 1, 1, 1]) {
      const r = await s.get(`/tiles/1/${x}/0`, { cookie: s.viewer.cookie, address: "198.51.100.23" });
      assert.equal(r.status, 200);
      await r.body?.cancel();
    }
    await flushLimitCounts();
    assert.equal(await hitsOf("tilesByAddress", "198.51.100.23"), 4);
    assert.equal(await hitsOf("tilesByAddress", "203.0.113.7"), 0);
    assert.equal(s.upstream.seen.length, 2);
  } finally {
    await s.close();
  }
});
