import assert from "node:assert/strict";
import {
  carelessReason,
  HOT_MIN_VOTE_MS,
  HOT_SAME_SIDE_RUN,
  hotResults,
  nextVoterStats,
  NO_VOTER,
  sideCredit,
  thompsonFirst,
  wilson,
} from "./hotOrNot.ts";
import type { HotVote, HotVoterStats } from "./shapes/hotOrNot.ts";

const vote = (left: string, right: string, choice: "LEFT" | "RIGHT"): HotVote => ({
  left,
  right,
  choice,
  counted: true,
  why: null,
  ts: 0,
});

Deno.test("hot or not - the Wilson interval holds the share and narrows with more votes", () => {
  const [l1, h1] = wilson(0.7, 20);
  const [l2, h2] = wilson(0.7, 200);
  assert.ok(l1 < 0.7 && 0.7 < h1 && l2 > l1 && h2 < h1);
  assert.deepEqual(wilson(0, 0), [0, 1]);
  assert.ok(Math.abs(l1 - 0.481) < 0.01 && Math.abs(h1 - 0.855) < 0.01);
});

Deno.test("hot or not - careless: too fast, or the run's last of HOT_SAME_SIDE_RUN on one side; a Skip never", () => {
  assert.equal(carelessReason("LEFT", HOT_MIN_VOTE_MS - 1, NO_VOTER), "FAST");
  assert.equal(carelessReason("SKIP", 0, NO_VOTER), null);
  let s: HotVoterStats = NO_VOTER;
  const whys = [];
  for (let i = 0; i < HOT_SAME_SIDE_RUN + 1; i++) {
    whys.push(carelessReason("LEFT", 5_000, s));
    s = nextVoterStats(s, "LEFT");
  }
  assert.deepEqual(whys.map((w) => w !== null), whys.map((_, i) => i >= HOT_SAME_SIDE_RUN - 1));
  assert.equal(carelessReason("RIGHT", 5_000, s), null);
});

Deno.test("hot or not - a voter's lean to one side is corrected; a voter without one counts whole", () => {
  assert.equal(sideCredit({ left: 1, right: 0, run: 1, runSide: "LEFT" }, "LEFT"), 1);
  const leaning = { left: 8, right: 2, run: 1, runSide: "LEFT" as const };
  assert.ok(sideCredit(leaning, "LEFT") < 0.75);
  assert.equal(sideCredit(leaning, "RIGHT"), 1);

  // Two pictures equally good; one voter always picks the left, and the sides are dealt evenly: uncorrected,
  // the left-leaner's picks follow the sides; corrected, the shares stay near one half either way.
  const lefty = { left: 10, right: 0, run: 0, runSide: null };
  const fair = { left: 5, right: 5, run: 0, runSide: null };
  const votes = [
    ...Array.from({ length: 5 }, () => ({ vote: vote("a", "b", "LEFT"), voter: lefty })),
    ...Array.from({ length: 5 }, () => ({ vote: vote("b", "a", "LEFT"), voter: lefty })),
    // A fair voter who prefers a: that preference must survive.
    ...Array.from({ length: 5 }, () => ({ vote: vote("a", "b", "LEFT"), voter: fair })),
    ...Array.from({ length: 5 }, () => ({ vote: vote("b", "a", "RIGHT"), voter: fair })),
  ];
  const [a, b] = hotResults(["a", "b"], () => false, votes);
  assert.equal(a.votes, 20);
  assert.ok(a.share! > 0.7, String(a.share));
  assert.ok(Math.abs(a.share! + b.share! - 1) < 1e-9);
});

Deno.test("hot or not - Thompson sampling puts the picture with the best like rate first most of the time", () => {
  // A seeded generator (a linear congruential one): the same draws on every run.
  let seed = 7;
  const rand = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const arms = { a: { shown: 100, won: 5 }, b: { shown: 100, won: 30 }, c: { shown: 100, won: 10 } };
  let b = 0;
  for (let i = 0; i < 500; i++) if (thompsonFirst(["a", "b", "c"], arms, rand) === "b") b++;
  assert.ok(b > 480, String(b));
  // A picture never tried still gets a chance now and then.
  let fresh = 0;
  for (let i = 0; i < 500; i++) if (thompsonFirst(["a", "b", "new"], arms, rand) === "new") fresh++;
  assert.ok(fresh > 0 && fresh < 500);
});
