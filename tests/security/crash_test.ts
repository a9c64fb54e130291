/**
 * Crash durability (part of the security suite): the short version of `deno task chaos`, and the
 * check it rests on.
 */

import assert from "node:assert/strict";
import { kvTest } from "../kv.ts";
import { kv } from "../../kv/db.ts";
import { keys } from "../../kv/keys.ts";
import { getProfileLike, putProfileLike } from "../../kv/likes.ts";
import { sendPrivateMessage } from "../../kv/messages.ts";
import { chaosRound, checkConsistency, describe } from "../../scripts/chaos.ts";

Deno.test("crash - kill -9 in a burst of 100 likes and messages: no acknowledged write is missing after the restart, every counter equals its records", async () => {
  const r = await chaosRound({ writes: 100, log: console.log });
  console.log(describe(1, r));
  assert.equal(r.writes, 100);
  assert.ok(r.acked > 0 && r.unanswered > 0, "the server died mid-burst");
  assert.deepEqual(r.missing, [], "no acknowledged write missing");
  assert.deepEqual(r.inconsistent, [], "every counter equals its records, every index its records");
  assert.ok(r.ms < 40_000, `one round in under 40 s (${r.ms.toFixed(0)} ms)`);
});

kvTest(
  "crash - the check finds a counter off by one, a like without its index and a message without its conversation",
  async () => {
    await putProfileLike("p1", "p2", "LIKE");
    await putProfileLike("p3", "p2", "LIKE");
    await putProfileLike("p3", "p2", "DISLIKE");
    const m = await sendPrivateMessage("p1", "p2", "hello", []);
    assert.deepEqual(await checkConsistency(kv()), [], "consistent as written");

    await kv().atomic().sum(keys.roleCount("USER"), 1n).commit();
    const like = await kv().get<{ seq: string }>(keys.profileLike("p1", "p2"));
    await kv().delete(keys.profileLikeByLiked("p2", "LIKE", like.value!.seq, "p1"));
    await kv().delete(keys.conversationMessage("p2", "p1", m.id));
    const problems = await checkConsistency(kv());
    assert.equal((await getProfileLike("p3", "p2")).likeType, "DISLIKE");
    assert.equal(problems.length, 3, problems.join("\n"));
    assert.match(problems.join("\n"), /role count USER: counter 1, records 0/);
    assert.match(problems.join("\n"), /no received index/);
    assert.match(problems.join("\n"), /not in p2's conversation/);
  },
);
