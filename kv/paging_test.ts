import assert from "node:assert/strict";
import { kvTest } from "../tests/kv.ts";
import { kv } from "./db.ts";
import { BadCursorError, isCursorShaped, pageOf } from "./paging.ts";

const PREFIX = ["paging_test"];

async function fill(n: number) {
  for (let i = 0; i < n; i++) await kv().set([...PREFIX, `k${i}`], i);
}

kvTest("paging - a cursor handed out reads the next page", async () => {
  await fill(5);
  const first = await pageOf<number, number>(PREFIX, { limit: 2 }, (e) => e.value, false);
  assert.deepEqual(first.items, [0, 1]);
  assert.ok(first.cursor && isCursorShaped(first.cursor));
  const second = await pageOf<number, number>(PREFIX, { limit: 2, cursor: first.cursor }, (e) => e.value, false);
  assert.deepEqual(second.items, [2, 3]);
});

kvTest(
  "paging - a cursor KV never handed out is a BadCursorError, never another error (RTL mark, NUL, 10 KB, junk)",
  async () => {
    await fill(3);
    const bad = [
      "\u202e",
      "%E2%80%AE",
      "\u0000",
      "é",
      "!!!",
      "eA",
      "////",
      "=",
      "../",
      "A".repeat(10_000),
      "😀",
      "a\u200bb",
    ];
    for (const cursor of bad) {
      await assert.rejects(
        pageOf(PREFIX, { limit: 2, cursor }, (e) => e.value),
        BadCursorError,
        JSON.stringify(cursor.slice(0, 20)),
      );
    }
  },
);

kvTest("paging - a well-shaped cursor that decodes to a key past KV's size is a BadCursorError", async () => {
  await fill(1);
  // Under MAX_CURSOR_LENGTH, but its key with a long prefix passes 2 KB.
  const longPrefix = ["paging_test", "p".repeat(1500)];
  await assert.rejects(pageOf(longPrefix, { limit: 2, cursor: "A".repeat(1000) }, (e) => e.value), BadCursorError);
});
