import assert from "node:assert/strict";
import { AsyncLocalStorage } from "node:async_hooks";
import { firstUse } from "./firstUse.ts";

Deno.test("firstUse - nothing loads before the first call; callers meanwhile share one load, later ones none", async () => {
  let loads = 0;
  let release!: () => void;
  const gate = new Promise<void>((r) => release = r);
  const m = firstUse(async () => {
    loads++;
    await gate;
    return { answer: 42 };
  });
  assert.equal(loads, 0);
  assert.equal(m.now(), undefined);
  const both = Promise.all([m.load(), m.load()]);
  release();
  const [a, b] = await both;
  assert.equal(loads, 1);
  assert.equal(a, b);
  assert.equal(m.now(), a);
  assert.equal(await m.load(), a);
  assert.equal(loads, 1);
});

Deno.test("firstUse - a load that failed is tried again at the next call", async () => {
  let loads = 0;
  const m = firstUse(() => {
    loads++;
    return loads === 1 ? Promise.reject(new Error("not yet")) : Promise.resolve("loaded");
  });
  await assert.rejects(m.load(), /not yet/);
  assert.equal(m.now(), undefined);
  assert.equal(await m.load(), "loaded");
  assert.equal(loads, 2);
});

Deno.test("firstUse - the load runs outside the calling request's async context", async () => {
  const request = new AsyncLocalStorage<string>();
  const m = firstUse(() => Promise.resolve(request.getStore()));
  assert.equal(await request.run("a request's language", () => m.load()), undefined);
});
