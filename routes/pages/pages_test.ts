import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
import { ROUTES } from "../table.ts";
import { sharedBuild } from "../../tests/islands_build.ts";
import { reloadManifest } from "../assets.ts";
import { TEXTS } from "../../domain/texts.ts";
import { listContactMessages } from "../../kv/contact.ts";

// The islands as built for these sources, shared with the other test files (and runs).
await sharedBuild();
reloadManifest();

const concrete = (path: string) => path.replace(":profileId", "someone").replace(":game", "cooties");
const scripts = (html: string) => [...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]);

Deno.test("pages - every route renders its title for a member; no route crashes", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    for (const route of ROUTES) {
      if (route.access === "admin" || route.path === "/logout") continue;
      const r = await t.call("GET", concrete(route.path), { cookie: m.cookie });
      assert.ok(r.status === 200 || r.status === 302, `${route.path} answered ${r.status}`);
      if (r.status === 200) assert.match(r.text, new RegExp(`<title>[^<]*·`), route.path);
    }
  } finally {
    t.close();
  }
});

Deno.test("pages - member pages send a logged-out visitor to /login; admin pages are 404 for members", async () => {
  const t = await testApp();
  try {
    for (const route of ROUTES.filter((r) => r.access === "auth" || r.access === "admin")) {
      const r = await t.call("GET", concrete(route.path));
      assert.equal(r.status, 302, route.path);
      assert.equal(r.headers.get("location"), "/login");
    }
    const m = await t.member();
    const dash = await t.call("GET", "/dashboard", { cookie: m.cookie });
    assert.equal(dash.status, 404);
    assert.match(dash.text, new RegExp(TEXTS.notFound));
  } finally {
    t.close();
  }
});

Deno.test("pages - the 404 page has the spec's text and a Home button", async () => {
  const t = await testApp();
  try {
    const r = await t.call("GET", "/this/is/not/a/page");
    assert.equal(r.status, 404);
    assert.match(r.text, /Well, this is embarrassing\. The feature you requested was not found\./);
    assert.match(r.text, /<a class="button primary" href="\/">Home<\/a>/);
  } finally {
    t.close();
  }
});

Deno.test("pages - pages without interaction ship no JavaScript; interactive ones load their islands", async () => {
  const t = await testApp();
  try {
    for (const path of ["/aboutus", "/tos", "/support", "/sorry", "/nope", "/"]) {
      const r = await t.call("GET", path);
      assert.deepEqual(scripts(r.text), [], `${path} ships no JS`);
    }
    const m = await t.member();
    for (const path of ["/billing"]) {
      assert.deepEqual(scripts((await t.call("GET", path, { cookie: m.cookie })).text), [], `${path} ships no JS`);
    }
    const login = scripts((await t.call("GET", "/login")).text);
    assert.ok(login.some((s) => /\/LoginForm-\w+\.js$/.test(s)), "login loads its form island");
    assert.ok(login.some((s) => /\/Header-\w+\.js$/.test(s)), "and the header island");
  } finally {
    t.close();
  }
});

Deno.test("pages - menu: Login only when logged out, member routes only when logged in, dashboard only for admins", async () => {
  const t = await testApp();
  try {
    const out = (await t.call("GET", "/aboutus")).text;
    assert.match(out, /href="\/login">Login</);
    assert.doesNotMatch(out, /href="\/search\/map"/);
    const m = await t.member();
    const inside = (await t.call("GET", "/aboutus", { cookie: m.cookie })).text;
    assert.doesNotMatch(inside, /href="\/login">Login</);
    assert.match(inside, /href="\/settings">Account</);
    assert.doesNotMatch(inside, /href="\/dashboard"/);
    assert.doesNotMatch(inside, /href="\/register"/, "hidden routes are never on the menu");
  } finally {
    t.close();
  }
});

Deno.test("pages - titles and brand follow the host", async () => {
  const t = await testApp();
  try {
    const r = await t.app.request("http://women.localhost/aboutus");
    const html = await r.text();
    assert.match(html, /<title>About Us · Lambda Women<\/title>/);
    assert.match(html, /data-brand="women"/);
  } finally {
    t.close();
  }
});

Deno.test("pages - a page that fails renders 'Ooops!' with a 500, never raw JSON; the API keeps its JSON error", async () => {
  const t = await testApp();
  const quiet = console.error;
  console.error = () => {};
  try {
    // Routes that throw on purpose, as a bug in a page or a call would.
    t.app.get("/test/broken-page", () => {
      throw new Error("on purpose");
    });
    t.app.get("/api/test/broken-call", () => {
      throw new Error("on purpose");
    });
    const m = await t.member();
    const page = await t.call("GET", "/test/broken-page", { cookie: m.cookie });
    assert.equal(page.status, 500);
    assert.match(page.headers.get("content-type") ?? "", /text\/html/);
    assert.match(page.text, new RegExp(`<h1>${TEXTS.sorryTitle}</h1>`));
    assert.doesNotMatch(page.text, /on purpose/, "no error detail reaches the member");
    const call = await t.call("GET", "/api/test/broken-call", { cookie: m.cookie });
    assert.equal(call.status, 500);
    assert.deepEqual(call.data, {
      error: {
        code: "internal",
        message: "Something went wrong on our side.",
        requestId: call.headers.get("x-request-id"),
      },
    });
    // /sorry itself is a normal page.
    const sorry = await t.call("GET", "/sorry");
    assert.equal(sorry.status, 200);
    assert.match(sorry.text, new RegExp(`<h1>${TEXTS.sorryTitle}</h1>`));
  } finally {
    console.error = quiet;
    t.close();
  }
});

Deno.test("pages - support's problem report works without login and JavaScript, keeps what was typed on a refusal, is rate-limited", async () => {
  const t = await testApp();
  try {
    const page = await t.call("GET", "/support");
    assert.match(page.text, /<form[^>]*action="\/support#report" method="post"/);
    assert.deepEqual(scripts(page.text), [], "still no JavaScript");
    const form = { name: "Robin", email: "robin@example.com", message: "The map stays grey on my phone." };

    const noEmail = await t.call("POST", "/support", { form: { ...form, email: "" } });
    assert.equal(noEmail.status, 400);
    assert.match(noEmail.text, /Please enter a valid email address/);
    assert.match(noEmail.text, /The map stays grey on my phone\./, "the message typed is shown again");
    assert.deepEqual(await listContactMessages(), [], "nothing stored");

    const sent = await t.call("POST", "/support", { form });
    assert.equal(sent.status, 200);
    assert.match(sent.text, new RegExp(TEXTS.supportReportSent));
    const [stored] = await listContactMessages();
    assert.deepEqual([stored.name, stored.email, stored.message, stored.accountId], [
      "Robin",
      "robin@example.com",
      "The map stays grey on my phone.",
      undefined,
    ]);
    for (let i = 0; i < 4; i++) assert.equal((await t.call("POST", "/support", { form })).status, 200);
    const limited = await t.call("POST", "/support", { form });
    assert.equal(limited.status, 429);
    assert.match(limited.text, /The map stays grey on my phone\./);
    assert.equal((await listContactMessages()).length, 5);
  } finally {
    t.close();
  }
});

Deno.test("pages - /profile and /profile/ go to one's own profile (a visitor to /login)", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    for (const path of ["/profile", "/profile/"]) {
      const r = await t.call("GET", path, { cookie: m.cookie });
      assert.equal(r.status, 302, path);
      const to = r.headers.get("location")!;
      const end = to === "/profile" ? await t.call("GET", to, { cookie: m.cookie }) : r;
      assert.equal(end.headers.get("location"), `/profile/${m.profileId}`, path);
    }
    assert.equal((await t.call("GET", "/profile")).headers.get("location"), "/login");
  } finally {
    t.close();
  }
});

Deno.test("pages - a same-origin form post sends Origin: null (no-referrer) and is accepted; null or foreign alone is 403", async () => {
  const t = await testApp();
  try {
    const form = { name: "Robin", email: "robin@example.com", message: "Hello" };
    const post = (headers: Record<string, string>) => t.call("POST", "/support", { form, headers });
    assert.equal((await post({ origin: "null", "sec-fetch-site": "same-origin" })).status, 200);
    assert.equal((await post({ origin: "null" })).status, 403);
    assert.equal((await post({ origin: "http://host.evil.example" })).status, 403);
    assert.equal((await post({ origin: "not a url at all" })).status, 403);
    assert.equal((await post({ origin: "http://localhost", "sec-fetch-site": "cross-site" })).status, 403);
    assert.equal((await listContactMessages()).length, 1, "only the same-origin post was stored");
  } finally {
    t.close();
  }
});

Deno.test("pages - the language's lang and direction; the pseudo-locale only where PSEUDO_LOCALE=1 allows it", async () => {
  const t = await testApp();
  try {
    const page = async (headers: Record<string, string>) => (await t.call("GET", "/login", { headers })).text;
    assert.match(await page({ "accept-language": "ar-EG,ar;q=0.9" }), /<html lang="ar" dir="rtl"/);
    assert.match(await page({ "accept-language": "fr-FR" }), /<html lang="fr" dir="ltr"/);
    const pseudo = { "accept-language": "en", cookie: "lang=en-XA" };
    Deno.env.delete("PSEUDO_LOCALE");
    assert.match(await page(pseudo), /<html lang="en" dir="ltr"/, "a member cannot ask for it");
    Deno.env.set("PSEUDO_LOCALE", "1");
    try {
      const html = await page(pseudo);
      assert.match(html, /<html lang="en-XA" dir="ltr"/);
      assert.match(html, /⟦/);
    } finally {
      Deno.env.delete("PSEUDO_LOCALE");
    }
  } finally {
    t.close();
  }
});
