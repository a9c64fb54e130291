import assert from "node:assert/strict";
import { MARKER_MAX_PX, MARKER_MIN_PX, markerSize, spreadApart } from "./markers.ts";

Deno.test("map markers - size follows screen area per profile, within 16 and 128 px", () => {
  assert.equal(markerSize(390, 844, 8), 68, "a few members on a phone");
  assert.ok(markerSize(390, 844, 8) > markerSize(390, 844, 40), "more members, smaller markers");
  assert.equal(markerSize(1366, 900, 799), MARKER_MIN_PX);
  assert.equal(markerSize(2560, 1440, 1), MARKER_MAX_PX);
  assert.equal(markerSize(390, 844, 0), MARKER_MAX_PX);
});

Deno.test("map markers - spread apart: clear markers stay as they are; one that would cover another or 'me' moves just clear of them", () => {
  const gap = 40;
  const far = [{ x: 0, y: 0 }, { x: 100, y: 0 }, { x: 0, y: 100 }];
  const kept = spreadApart(far, [], gap);
  kept.forEach((q, i) => assert.equal(q, far[i], "the same object: not moved"));

  // Five members on one spot, beside the viewer.
  const stacked = Array.from({ length: 5 }, () => ({ x: 200, y: 200 }));
  const me = { x: 210, y: 200 };
  const spread = spreadApart(stacked, [me], gap);
  const all = [me, ...spread];
  for (let i = 0; i < all.length; i++) {
    for (let j = i + 1; j < all.length; j++) {
      assert.ok(Math.hypot(all[i].x - all[j].x, all[i].y - all[j].y) >= gap - 1e-9, `${i} and ${j} apart`);
    }
  }
  // Each moved no further than the rings allow.
  for (const q of spread) assert.ok(Math.hypot(q.x - 200, q.y - 200) <= 3 * gap + 1e-9);
});

Deno.test("map markers - spread apart: with no clear place within the rings a marker stays where it is", () => {
  const gap = 10;
  // A dense block of fixed points covers every ring place around (0, 0).
  const fixed = [];
  for (let x = -40; x <= 40; x += 5) for (let y = -40; y <= 40; y += 5) fixed.push({ x, y });
  const p = { x: 0, y: 0 };
  assert.equal(spreadApart([p], fixed, gap)[0], p);
});

Deno.test("map markers - spread apart: a marker under a floating control moves clear of it; one clear of it stays", () => {
  const gap = 40;
  const chat = { left: 280, top: 600, right: 380, bottom: 650 };
  const under = { x: 330, y: 620 }, clear = { x: 100, y: 100 };
  const [moved, kept] = spreadApart([under, clear], [], gap, [chat]);
  assert.equal(kept, clear);
  assert.notEqual(moved, under);
  const covers = moved.x + gap / 2 > chat.left && moved.x - gap / 2 < chat.right && moved.y + gap / 2 > chat.top &&
    moved.y - gap / 2 < chat.bottom;
  assert.ok(!covers, "its face is clear of the button");
});

Deno.test("map markers - spread apart: a face the map shows whole is never moved past its edge; one already cut may go anywhere clear", () => {
  const gap = 100;
  const view = { left: 0, top: 0, right: 400, bottom: 400 };
  // Three members stacked by the bottom edge: the first ring's places below would cut them.
  const stacked = Array.from({ length: 3 }, () => ({ x: 200, y: 340 }));
  const spread = spreadApart(stacked, [], gap, [], view);
  for (const q of spread) {
    assert.ok(
      q.x - gap / 2 >= 0 && q.x + gap / 2 <= 400 && q.y - gap / 2 >= 0 && q.y + gap / 2 <= 400,
      JSON.stringify(q),
    );
  }
  assert.equal(new Set(spread.map((q) => `${q.x},${q.y}`)).size, 3, "each its own place");
  // Without the view the same members take the first clear place, which is past the edge.
  assert.ok(spreadApart(stacked, [], gap).some((q) => q.y + gap / 2 > 400));
  // A face already cut by the edge is not held in.
  const cut = { x: 200, y: 380 };
  assert.notEqual(spreadApart([cut], [{ x: 200, y: 380 }], gap, [], view)[0], cut);
});
