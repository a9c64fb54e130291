import assert from "node:assert/strict";
import { until } from "../tests/wait.ts";
import { backupStore, verifyBackup } from "./backup.ts";
import { restoreStore, StoreInUseError } from "./restore.ts";

/** A store being written to by a burst of concurrent writers; what each write's acknowledgement saw. */
function burst(db: Deno.Kv, writers: number, each: number) {
  const acked: number[] = [];
  let n = 0;
  const done = Promise.all(Array.from({ length: writers }, async () => {
    for (let i = 0; i < each; i++) {
      const id = n++;
      // A blob-sized value now and then: long writes, as pictures are.
      const value = id % 25 === 0 ? new Uint8Array(60_000).fill(id % 251) : { id, text: `write ${id}` };
      await db.atomic().set(["burst", id], value).sum(["burst_count"], 1n).commit();
      acked.push(id);
    }
  }));
  return { acked, done };
}

Deno.test("backup - a copy taken in the middle of a write burst opens, is whole, and holds every write acknowledged before it began", async () => {
  const dir = await Deno.makeTempDir();
  const store = `${dir}/app.kv`;
  const db = await Deno.openKv(store);
  try {
    const b = burst(db, 8, 150);
    await until(() => b.acked.length >= 300, "300 writes acknowledged", { everyMs: 5 });
    const before = [...b.acked];
    const copy = await backupStore(store, `${dir}/backup.kv`);
    assert.ok(b.acked.length < 1200, "the burst was still running when the copy ended");
    await b.done;
    assert.equal(copy.ok, true);
    assert.equal(verifyBackup(`${dir}/backup.kv`).problem, "ok");

    const restored = await Deno.openKv(`${dir}/backup.kv`);
    try {
      const missing: number[] = [];
      for (const id of before) if (!(await restored.get(["burst", id])).versionstamp) missing.push(id);
      assert.deepEqual(missing, [], "every write acknowledged before the backup began is in it");
      // One snapshot: the counter equals the records it holds (no write half in).
      let records = 0n;
      for await (const _ of restored.list({ prefix: ["burst"] })) records++;
      assert.equal((await restored.get<Deno.KvU64>(["burst_count"])).value?.value, records);
    } finally {
      restored.close();
    }
    await assert.rejects(() => backupStore(store, `${dir}/backup.kv`), /exists/);
  } finally {
    db.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("restore - refuses a store a running process holds, and a damaged backup; else puts it back and keeps the old store aside", async () => {
  const dir = await Deno.makeTempDir();
  const store = `${dir}/app.kv`;
  try {
    const db = await Deno.openKv(store);
    await db.set(["v"], "backed up");
    await backupStore(store, `${dir}/backup.kv`);
    await db.set(["v"], "after the backup");
    await assert.rejects(() => restoreStore(`${dir}/backup.kv`, store), StoreInUseError);
    assert.equal((await db.get(["v"])).value, "after the backup", "the running store is untouched");
    db.close();

    const damaged = `${dir}/damaged.kv`;
    const bytes = await Deno.readFile(`${dir}/backup.kv`);
    await Deno.writeFile(damaged, bytes.slice(0, Math.floor(bytes.length / 2)));
    await assert.rejects(() => restoreStore(damaged, store), /not a whole KV backup/);

    const r = await restoreStore(`${dir}/backup.kv`, store, new Date(0));
    assert.ok(r.keptAside);
    const back = await Deno.openKv(store);
    assert.equal((await back.get(["v"])).value, "backed up");
    back.close();
    const old = await Deno.openKv(r.keptAside);
    assert.equal((await old.get(["v"])).value, "after the backup", "the replaced store is kept whole");
    old.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("backup and restore - on a remote KV (KV_URL) they say they copy a local file only, and touch nothing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (
      const [script, said] of [["backup.ts", "a remote KV is backed up by its own service"], [
        "restore.ts",
        "a remote KV is restored by its own service",
      ]]
    ) {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", new URL(script, import.meta.url).pathname, `${dir}/copy.kv`],
        env: { KV_URL: "http://127.0.0.1:9/", KV_PATH: `${dir}/app.kv` },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(out.stderr);
      assert.equal(out.code, 2, stderr);
      assert.match(stderr, new RegExp(`KV_URL is set: ${said}`));
      assert.deepEqual(await Array.fromAsync(Deno.readDir(dir)), [], "no file written");
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
