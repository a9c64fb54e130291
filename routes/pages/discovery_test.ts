import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
import { reportPosition } from "../../kv/positions/mod.ts";
import { updateProfile } from "../../kv/profiles.ts";
import { createAccount } from "../../kv/accounts.ts";
import { DISCOVERY_TEXTS } from "../../domain/discovery.ts";
import { SCREEN_TEXTS } from "../../domain/screenTexts.ts";
import { NO_CHARACTERISTICS } from "../../domain/characteristics.ts";
import { addPicture } from "../../kv/pictures.ts";
import { normalizeUpload } from "../../images/pipeline.ts";
import { portrait } from "../../tests/fixtures/pictures.ts";
import { AFTER_PICTURES_HASH, AFTER_PICTURES_SCRIPT } from "../afterPictures.ts";
import { sharedBuild } from "../../tests/islands_build.ts";
import { reloadManifest } from "../assets.ts";

// The islands' build, so that pages name their scripts.
await sharedBuild();
reloadManifest();

const PHOENIX = { lat: 33.4484, lon: -112.074, use: "OVERRIDE", hide: false } as const;

/** Where neighbour i says they are: long decimals, so finding one in a page is no coincidence. */
const reportedLat = (i: number) => PHOENIX.lat + 0.0213579246 * (i + 1);

/** A viewer at Phoenix and `n` members spread north of them. */
async function neighbourhood(n: number) {
  const t = await testApp();
  const viewer = await t.member();
  await reportPosition(viewer.profileId, PHOENIX);
  const others: string[] = [];
  for (let i = 0; i < n; i++) {
    // Straight into the store: registering 30 members through the API would meet its rate limit.
    const account = (await createAccount({ email: `n${i}@example.com` }))!;
    const m = { profileId: account.defaultProfileId };
    await updateProfile(m.profileId, {
      profilename: `Neighbour number ${i}`,
      characteristics: i % 2 ? ["top"] : [],
      birthdate: "1990-05-05",
    });
    await reportPosition(m.profileId, { ...PHOENIX, lat: reportedLat(i) });
    others.push(m.profileId);
  }
  return { t, viewer, others };
}

const count = (html: string, re: RegExp) => [...html.matchAll(re)].length;

/** The props the server handed an island, parsed back from its marker. */
function islandProps(html: string, name: string) {
  const m = html.match(new RegExp(`data-island="${name}" data-props="([^"]*)"`));
  assert.ok(m, `island ${name} on the page`);
  const json = m[1].replaceAll("&quot;", '"').replaceAll("&amp;", "&").replaceAll("&#x27;", "'").replaceAll(
    "&lt;",
    "<",
  ).replaceAll("&gt;", ">");
  return JSON.parse(json);
}

Deno.test("discovery pages - tiles render the first 30 nearest with distance, cut name and 'near you'", async () => {
  const { t, viewer, others } = await neighbourhood(32);
  try {
    const r = await t.call("GET", "/search/tile", { cookie: viewer.cookie });
    assert.equal(r.status, 200);
    assert.equal(count(r.text, /class="tile"/g), 30);
    assert.match(r.text, new RegExp(`href="/profile/${others[0]}"`));
    assert.ok(!r.text.includes(`href="/profile/${others[31]}"`), "the 32nd is on the next page");
    assert.match(r.text, /<span class="tile-name[^"]*">(<[^>]*>)*<span class="name-cut">Neighbour nu<\/span>/);
    assert.match(r.text, /<span class="tile-distance">\d+(\.\d\d mi| ft)<\/span>/);
    assert.ok(r.text.includes(`>${DISCOVERY_TEXTS.nearYou}<`));
    const props = islandProps(r.text, "ProfileTiles");
    assert.equal(props.myProfileId, viewer.profileId);
    assert.equal(props.initial.items.length, 30);
    assert.equal(props.initial.hasMore, true);
    assert.deepEqual(props.known, { lat: PHOENIX.lat, lon: PHOENIX.lon, use: "OVERRIDE", hide: false });
  } finally {
    t.close();
  }
});

Deno.test("discovery pages - no other member's reported position reaches the page", async () => {
  const { t, viewer } = await neighbourhood(3);
  try {
    for (const path of ["/search/tile", "/search/swype", "/search/profile"]) {
      const r = await t.call("GET", path, { cookie: viewer.cookie });
      for (let i = 0; i < 3; i++) {
        const reported = String(reportedLat(i));
        assert.ok(!r.text.includes(reported), `${path} leaks ${reported}`);
      }
    }
  } finally {
    t.close();
  }
});

Deno.test("discovery pages - the list renders ten cards with chat buttons and 'i'm so boring'", async () => {
  const { t, viewer, others } = await neighbourhood(12);
  try {
    const r = await t.call("GET", "/search/profile", { cookie: viewer.cookie });
    assert.equal(r.status, 200);
    assert.equal(count(r.text, /class="profile-card"/g), 10);
    assert.ok(r.text.includes(`href="/profile/${others[0]}#chat"`));
    assert.ok(r.text.includes(NO_CHARACTERISTICS.replace("'", "&#x27;")));
    assert.match(r.text, /<dd>\d\d<\/dd>/, "the age");
  } finally {
    t.close();
  }
});

Deno.test("discovery pages - swipe renders the nearest on top with the buttons and the viewer's id", async () => {
  const { t, viewer, others } = await neighbourhood(2);
  try {
    const r = await t.call("GET", "/search/swype", { cookie: viewer.cookie });
    assert.equal(r.status, 200);
    assert.match(r.text, new RegExp(`class="swipe-card" data-profile-id="${others[0]}"`));
    assert.match(r.text, new RegExp(`class="swipe-card behind" data-profile-id="${others[1]}"`));
    for (const label of [DISCOVERY_TEXTS.meh, DISCOVERY_TEXTS.skip, DISCOVERY_TEXTS.nice]) {
      assert.match(r.text, new RegExp(`${label}</button>`), label);
    }
    // The link to the top card's profile (opened in the page: islands/inPage.ts).
    assert.match(
      r.text,
      new RegExp(`<a [^>]*href="/profile/${others[0]}"[^>]*>${DISCOVERY_TEXTS.viewProfileChat}</a>`),
    );
    assert.equal(islandProps(r.text, "SwipeDeck").myProfileId, viewer.profileId);
  } finally {
    t.close();
  }
});

Deno.test("discovery pages - a member without a position gets the page, and the island asks later", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    for (const path of ["/search/tile", "/search/swype", "/search/profile"]) {
      const r = await t.call("GET", path, { cookie: m.cookie });
      assert.equal(r.status, 200, path);
      assert.ok(r.text.includes(DISCOVERY_TEXTS.loading), path);
    }
    const props = islandProps((await t.call("GET", "/search/tile", { cookie: m.cookie })).text, "ProfileTiles");
    assert.equal(props.initial, null);
    assert.equal(props.known, null);
  } finally {
    t.close();
  }
});

Deno.test("discovery pages - the swipe deck leaves out members already rated; pages stay stable within a session", async () => {
  const { t, viewer, others } = await neighbourhood(3);
  try {
    const rate = (id: string, likeType: string) =>
      t.call("PUT", "/api/profile-like", {
        cookie: viewer.cookie,
        json: { likerProfileId: viewer.profileId, likedProfileId: id, likeType, tsCreated: 0 },
      });
    assert.equal((await rate(others[0], "LIKE")).status, 200);
    assert.equal((await rate(others[1], "UNDETERMINED")).status, 200);
    const r = await t.call("GET", "/search/swype", { cookie: viewer.cookie });
    const props = islandProps(r.text, "SwipeDeck");
    assert.deepEqual(
      props.initial.items.map((b: { profileId: string }) => b.profileId),
      [others[1], others[2]],
      "liked left out, skipped kept",
    );
    // Rating during the session does not shift its pages.
    assert.equal((await rate(others[2], "DISLIKE")).status, 200);
    const again = await t.call("GET", `/api/profile-briefs/nearest?page=0&size=30&ratedBefore=${props.ratedBefore}`, {
      cookie: viewer.cookie,
    });
    assert.deepEqual(again.data.items.map((b: { profileId: string }) => b.profileId), [others[1], others[2]]);
    const fresh = await t.call("GET", `/api/profile-briefs/nearest?page=0&size=30&ratedBefore=${Date.now() + 1000}`, {
      cookie: viewer.cookie,
    });
    assert.deepEqual(fresh.data.items.map((b: { profileId: string }) => b.profileId), [others[1]]);
    // Tiles and the list still show everyone.
    const tiles = await t.call("GET", "/api/profile-briefs/nearest?page=0&size=30", { cookie: viewer.cookie });
    assert.equal(tiles.data.items.length, 3);
    assert.equal(
      (await t.call("GET", "/api/profile-briefs/nearest?ratedBefore=abc", { cookie: viewer.cookie })).status,
      400,
    );
  } finally {
    t.close();
  }
});

Deno.test("discovery pages - the grid's first row of pictures is fetched first, its scripts added after them", async () => {
  const { t, viewer, others } = await neighbourhood(5);
  try {
    for (const [i, id] of others.entries()) await addPicture(id, await normalizeUpload(await portrait(i)));
    const r = await t.call("GET", "/search/tile", { cookie: viewer.cookie });
    assert.equal(r.status, 200);
    const imgs = [...r.text.matchAll(/<img [^>]*>/g)].map((m) => m[0]);
    assert.equal(imgs.length, 5);
    assert.deepEqual(imgs.map((img) => img.includes(`fetchPriority="high"`)), [true, true, true, false, false]);
    // No live script tag: the scripts wait in a template, and the one inline script (allowed by its hash) adds them.
    const head = r.text.slice(0, r.text.indexOf("</head>"));
    assert.doesNotMatch(head.replace(/<template>[\s\S]*?<\/template>/, ""), /<script [^>]*src=|rel="modulepreload"/);
    const waiting = head.match(/<template>([\s\S]*?)<\/template><script>([\s\S]*?)<\/script>/);
    assert.ok(waiting, "the scripts' template, then the loader");
    assert.match(waiting[1], /<script type="module" src="\/static\/build\/ProfileTiles-\w+\.js"><\/script>/);
    assert.match(waiting[1], /<link rel="modulepreload" href="\/static\/build\/chunks\/chunk-\w+\.js">/);
    assert.equal(waiting[2], AFTER_PICTURES_SCRIPT);
    assert.ok(r.headers.get("content-security-policy")!.includes(AFTER_PICTURES_HASH));
    // Other member pages keep their scripts as live tags.
    const list = await t.call("GET", "/search/profile", { cookie: viewer.cookie });
    assert.match(list.text, /<script type="module" src="\/static\/build\/ProfileList-\w+\.js"><\/script>/);
    assert.ok(!list.text.includes(AFTER_PICTURES_SCRIPT));
  } finally {
    t.close();
  }
});

Deno.test("discovery pages - a member's profile shows the distance their tile shows", async () => {
  const t = await testApp();
  try {
    const viewer = await t.member();
    await reportPosition(viewer.profileId, PHOENIX);
    // Neighbours a few hundred metres to a mile away, in every direction: distances shown in feet,
    // each with its own fraction of a metre.
    for (let i = 0; i < 12; i++) {
      const account = (await createAccount({ email: `near${i}@example.com` }))!;
      await updateProfile(account.defaultProfileId, { profilename: `Near ${i}`, birthdate: "1990-05-05" });
      const angle = i * 0.53, reach = 0.003 + 0.0009 * i;
      await reportPosition(account.defaultProfileId, {
        ...PHOENIX,
        lat: PHOENIX.lat + reach * Math.sin(angle),
        lon: PHOENIX.lon + reach * Math.cos(angle),
      });
    }
    const grid = await t.call("GET", "/search/tile", { cookie: viewer.cookie });
    const tiles = [...grid.text.matchAll(/href="\/profile\/([^"]+)"[\s\S]*?<span class="tile-distance">([^<]+)</g)];
    assert.equal(tiles.length, 12);
    for (const [, id, tileText] of tiles) {
      const page = await t.call("GET", `/profile/${id}`, { cookie: viewer.cookie });
      const shown = page.text.replaceAll("<!-- -->", "").match(
        /class="status-distance">(?:<svg[\s\S]*?<\/svg>)?\s*([^<]+)</,
      );
      assert.ok(shown, `a distance on ${id}'s profile`);
      assert.equal(shown[1], SCREEN_TEXTS.away(tileText), `${id}: the tile's distance on the profile`);
    }
  } finally {
    t.close();
  }
});
