import assert from "node:assert/strict";
import { pause, until } from "../tests/wait.ts";
import { TYPING_MIN_GAP_MS, TYPING_REPEAT_MS, TypingTeller } from "./typing.ts";

function clockedTeller() {
  let t = 1_000_000;
  const told: number[] = [];
  const teller = new TypingTeller(() => told.push(t), () => t);
  return { teller, told, at: (ms: number) => (t = 1_000_000 + ms) };
}

Deno.test("typing - the first keystroke is told at once, then every few seconds while typing goes on", () => {
  const { teller, told, at } = clockedTeller();
  for (let ms = 0; ms <= 7000; ms += 100) {
    at(ms);
    teller.keystroke();
  }
  assert.deepEqual(told.map((t) => t - 1_000_000), [0, TYPING_REPEAT_MS, 2 * TYPING_REPEAT_MS]);
});

Deno.test("typing - after a message is sent, the next keystroke is told at once, not after the repeat", () => {
  const { teller, told, at } = clockedTeller();
  at(0);
  teller.keystroke();
  at(1500);
  teller.sent();
  at(1800);
  teller.keystroke();
  assert.deepEqual(told.map((t) => t - 1_000_000), [0, 1800]);
});

Deno.test("typing - a keystroke right after a telling waits for the server's least gap, then is told", async () => {
  let t = 0;
  const told: number[] = [];
  const teller = new TypingTeller(() => told.push(t), () => t);
  teller.keystroke();
  t = 100;
  teller.sent();
  teller.keystroke();
  teller.keystroke();
  assert.deepEqual(told, [0], "not told closer than the least gap");
  t = TYPING_MIN_GAP_MS;
  await until(() => told.length > 1, "the waiting telling", { timeoutMs: 5_000 });
  assert.deepEqual(told, [0, TYPING_MIN_GAP_MS], "told once when the gap has passed");
  teller.dispose();
});

Deno.test("typing - a telling still waiting is dropped when the conversation closes", async () => {
  const t = 0;
  const told: number[] = [];
  const teller = new TypingTeller(() => told.push(t), () => t);
  // Another conversation, left open, waits the same gap from the same moment.
  const open: number[] = [];
  const other = new TypingTeller(() => open.push(t), () => t);
  teller.keystroke();
  other.keystroke();
  teller.sent();
  other.sent();
  teller.keystroke();
  other.keystroke();
  teller.dispose();
  // The open one's telling went: the closed one's would have gone by then.
  await until(() => open.length > 1, "the open conversation's telling", { timeoutMs: 5_000 });
  assert.deepEqual(told, [0]);
  other.dispose();
});

Deno.test("typing - a keystroke while the message is on its way is told once it is stored, not before", async () => {
  let t = 0;
  const told: number[] = [];
  const teller = new TypingTeller(() => told.push(t), () => t);
  let stored!: () => void;
  teller.sent(new Promise<void>((r) => stored = r));
  t = 1000;
  teller.keystroke();
  teller.keystroke();
  await pause(0); // a turn: what the keystrokes started has run
  assert.deepEqual(told, [], "not told while the message is unstored");
  t = 1200;
  stored();
  await until(() => told.length > 0, "the telling after the store", { timeoutMs: 5_000 });
  await pause(0); // and nothing more in the next turn
  assert.deepEqual(told, [1200], "told once, right after");
  teller.dispose();
});
