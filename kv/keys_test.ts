/**
 * Every key shape lives in kv/keys.ts: no server module writes a key of one of its collections by
 * hand (`["gpt_votes"]`, `["conversations", profileId]`), so a renamed collection or a changed
 * shape is one change there. Server modules only (`.ts`): the islands' query keys (react-query)
 * and a page's icon lists are not the store's.
 */

import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);
const KEYS = "kv/keys.ts";

async function* sources(dir: string): AsyncGenerator<string> {
  for await (const e of Deno.readDir(new URL(dir, ROOT))) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) yield* sources(path);
    else if (e.name.endsWith(".ts") && !e.name.endsWith("_test.ts")) yield path;
  }
}

Deno.test("keys - no module outside kv/keys.ts writes a collection's key by hand", async () => {
  const collections = new Set(
    [...(await Deno.readTextFile(new URL(KEYS, ROOT))).matchAll(/\[\s*"([a-z_]+)"/g)].map((m) => m[1]),
  );
  assert.ok(collections.has("gpt_votes") && collections.has("conversations"), "the collections are read");
  const found: string[] = [];
  for (const dir of ["kv", "workers", "routes", "scripts", "bench", "images", "config"]) {
    for await (const path of sources(dir)) {
      if (path === KEYS) continue;
      // Code only: a comment may show a key's shape.
      const text = (await Deno.readTextFile(new URL(path, ROOT))).split("\n").filter((l) =>
        !/^\s*(\/\/|\*|\/\*)/.test(l)
      ).join("\n");
      // A key: the collection's name first, then nothing or a value that is not a string literal.
      for (const m of text.matchAll(/\[\s*"([a-z_]+)"\s*(\]|,\s*[A-Za-z_(])/g)) {
        if (collections.has(m[1])) found.push(`${path}: ["${m[1]}"...`);
      }
    }
  }
  assert.deepEqual(found, []);
});
