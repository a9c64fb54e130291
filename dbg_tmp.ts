import { decodeMessage, startKvConnect } from "./scripts/kvConnect.ts";
const s = await startKvConnect({ path: ":memory:", token: "secret-token-123" });
Deno.env.set("DENO_KV_ACCESS_TOKEN", s.token);
const kv = await Deno.openKv(s.url);
const orig = globalThis.fetch;
for (const [name, op] of [
  ["sum", () => kv.atomic().sum(["a"], 1n).commit()],
  ["set-exp", () => kv.atomic().set(["b"], 1, { expireIn: 1000 }).commit()],
  ["delete", () => kv.atomic().delete(["b"]).commit()],
  ["check", () => kv.atomic().check({ key: ["b"], versionstamp: null }).set(["b"], 2).commit()],
  ["setplain", () => kv.set(["c"], { a: 1 })],
] as const) {
  try { await (op as () => Promise<unknown>)(); console.log(name, "ok"); } catch (e) { console.log(name, String(e).slice(0, 200)); }
}
kv.close(); await s.close();
