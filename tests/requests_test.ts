/**
 * The request shapes of domain/shapes/ (what the islands send) are what the routes' zod schemas
 * take: the type checker proves every value of a shape is a valid input type of its schema, and
 * each test parses one such value with the schema, so a route that tightens its body, renames a
 * field or drops one fails here, not on a member's screen.
 */

import assert from "node:assert/strict";
import type * as z from "zod";
import type { PicLikeChange, ProfileLikeChange } from "../domain/shapes/likes.ts";
import type { NewMessage } from "../domain/shapes/messages.ts";
import type { ReportInput } from "../domain/shapes/reports.ts";
import type { CropBox, CropFractions } from "../domain/shapes/pictures.ts";
import type { ProfileChange } from "../domain/shapes/profiles.ts";
import type { ProfileNote } from "../domain/shapes/notes.ts";
import type { ArbDecision, ArbVerdict, GptVerdict } from "../domain/shapes/games.ts";
import { REQUESTS } from "../domain/requests.ts";
import { newId } from "../kv/ids.ts";

const profileLikeBody = REQUESTS["PUT /api/profile-like"].body;
const picLikeBody = REQUESTS["PUT /api/profile-pic-like"].body;
const messageBody = REQUESTS["POST /api/message"].body;
const reportBody = REQUESTS["POST /api/profile-report"].body;
const cropBody = REQUESTS["PUT /api/profile-pic/:id/crop"].body;
const suggestionBody = REQUESTS["PUT /api/games/photocrop/:picId"].body;
const profileBody = REQUESTS["PUT /api/profile"].body;
const noteBody = REQUESTS["PUT /api/profile-note"].body;
const gptBody = REQUESTS["PUT /api/games/gptbuster/:profileId"].body;
const arbBody = REQUESTS["PUT /api/games/arbitration/:reportId"].body;
const decisionBody = REQUESTS["PUT /api/admin/reports/:reportId"].body;

/** `T` is a valid input of `S` (checked by the type checker where it is used). */
type Takes<S extends z.ZodType, T> = [T] extends [z.input<S>] ? true : false;
type Holds<T extends true> = T;

export type RequestsAgree = [
  Holds<Takes<typeof profileLikeBody, ProfileLikeChange>>,
  Holds<Takes<typeof picLikeBody, PicLikeChange>>,
  Holds<Takes<typeof messageBody, NewMessage>>,
  Holds<Takes<typeof reportBody, ReportInput>>,
  Holds<Takes<typeof cropBody, CropBox>>,
  Holds<Takes<typeof suggestionBody, CropFractions & { gen: string }>>,
  Holds<Takes<typeof profileBody, ProfileChange & { id?: string }>>,
  Holds<Takes<typeof noteBody, Pick<ProfileNote, "authorProfileId" | "aboutProfileId" | "bodyText" | "privateTags">>>,
  Holds<Takes<typeof gptBody, { verdict: GptVerdict }>>,
  Holds<Takes<typeof arbBody, { verdict: ArbVerdict }>>,
  Holds<Takes<typeof decisionBody, { decision: ArbDecision }>>,
];

const a = newId();
const b = newId();

Deno.test("requests - a like, a picture like, a message and a report as the islands send them are accepted", () => {
  const like: ProfileLikeChange = { likerProfileId: a, likedProfileId: b, likeType: "LIKE", blocked: true };
  assert.deepEqual(profileLikeBody.parse(like), like);
  const picLike: PicLikeChange = { likerProfileId: a, profilePicId: b, profilePicProfileId: b, likeType: "DISLIKE" };
  assert.deepEqual(picLikeBody.parse(picLike), picLike);
  const message: NewMessage = { senderProfileId: a, recipientProfileId: b, bodyText: "Hi", profilePicIds: [] };
  assert.deepEqual(messageBody.parse(message), message);
  const report: ReportInput = { reportedProfileId: b, reason: "spam", text: "Sells things" };
  assert.deepEqual(reportBody.parse(report), report);
});

Deno.test("requests - the crop, a suggested crop and a profile change as the islands send them are accepted", () => {
  const box: CropBox = { x: 0, y: 10, width: 80, height: 100, rotate: 90 };
  assert.deepEqual(cropBody.parse(box), box);
  const suggestion = { gen: "g1", x: 0.1, y: 0.1, width: 0.5, height: 0.5 } satisfies CropFractions & { gen: string };
  assert.deepEqual(suggestionBody.parse(suggestion), suggestion);
  const change: ProfileChange = { profilename: "Sam", characteristics: ["bear"] };
  assert.deepEqual(profileBody.parse(change), change);
});

Deno.test("requests - an unknown swipe's ERROR is no like type: the API takes only LIKE, DISLIKE and UNDETERMINED", () => {
  const up = { likerProfileId: a, likedProfileId: b, likeType: "ERROR" };
  assert.equal(profileLikeBody.safeParse(up).success, false);
});

// --- every input a route reads is declared in domain/requests.ts

/**
 * Routes whose form is read as a stream by the upload reader (routes/multipart.ts, decision 0147),
 * not by `formOf`: their contract entry documents the form, and the handler parses the text fields
 * with the same pieces (`uploadFields`, `tokenSchema`).
 */
const STREAMED_FORMS: Record<string, string> = {
  "POST /api/profile-pic": "an upload of up to 8 MB is read part by part, never buffered whole",
  "POST /api/games/identify/selfie": "the selfie is read part by part, never buffered whole",
};

const ROUTE_DIR = new URL("../routes/api/", import.meta.url);

/** Where main.ts mounts each route module's app, by its exported name ("auth" -> "/api/auth"). */
async function mountPoints(): Promise<Map<string, string>> {
  const main = await Deno.readTextFile(new URL("../main.ts", import.meta.url));
  return new Map([...main.matchAll(/\.route\(\s*"([^"]+)",\s*(\w+)\s*\)/g)].map((m) => [m[2], m[1]]));
}

/** What one route module reads, found in its source. */
interface Reads {
  /** Input read around the contract: `c.req.json()`, `c.req.query()`, `jsonBody(c, schema)`... */
  raw: string[];
  /** `bodyOf(c, "R")`, `queryOf(c, "R")`, `formOf(c, "R")`: the part, the route named, and the route it sits in. */
  declared: { part: "body" | "query" | "form" | "bytes"; route: string; within: string | null }[];
  /** `readMultipart(...)`: the route it sits in. */
  streamed: (string | null)[];
  /** The routes the module registers. */
  routes: string[];
}

const RAW_READS =
  /\bc\.req\.(?:json|query|queries|formData|parseBody|text|arrayBuffer|blob)\(|\b(?:jsonBody|formFields)\(|\.raw\.(?:json|text|formData|arrayBuffer|blob)\(/g;

/** The reads of one route module's source, each placed in the route registered last before it under `base`. */
export function readsOf(source: string, base: string): Reads {
  const start = source.search(/export const \w+ = new Hono/);
  const registered = [...source.matchAll(/\.(get|post|put|patch|delete)\(\s*"([^"]*)"/g)].map((m) => ({
    at: m.index!,
    route: `${m[1].toUpperCase()} ${base}${m[2] === "/" ? "" : m[2]}`,
  }));
  const within = (at: number) =>
    start >= 0 && at > start ? registered.filter((r) => r.at < at).at(-1)?.route ?? null : null;
  const parts = { bodyOf: "body", queryOf: "query", formOf: "form", bytesOf: "bytes" } as const;
  return {
    raw: [...source.matchAll(RAW_READS)].map((m) => `${m[0]} (in ${within(m.index!) ?? "a helper"})`),
    declared: [...source.matchAll(/\b(bodyOf|queryOf|formOf|bytesOf)\(\s*c,\s*"([^"]+)"/g)].map((m) => ({
      part: parts[m[1] as keyof typeof parts],
      route: m[2],
      within: within(m.index!),
    })),
    streamed: [...source.matchAll(/\breadMultipart\(/g)].map((m) => within(m.index!)),
    routes: registered.map((r) => r.route),
  };
}

/** The reads of every route module in routes/api/, by file name. */
async function everyRead(): Promise<Map<string, Reads>> {
  const bases = await mountPoints();
  const out = new Map<string, Reads>();
  for await (const entry of Deno.readDir(ROUTE_DIR)) {
    if (!entry.isFile || !entry.name.endsWith(".ts") || entry.name.endsWith("_test.ts")) continue;
    const source = await Deno.readTextFile(new URL(entry.name, ROUTE_DIR));
    const exported = source.match(/export const (\w+) = new Hono/)?.[1];
    out.set(entry.name, readsOf(source, (exported && bases.get(exported)) ?? "/api"));
  }
  return out;
}

Deno.test("requests - the source scan finds input read around the contract, and a read named for another route", () => {
  const source = `const helper = (c) => queryOf(c, "GET /api/things");
export const demo = new Hono()
  .get("/things", (c) => answer(c, "GET /api/things", helper(c)))
  .post("/things", async (c) => {
    const body = await c.req.json();
    const q = queryOf(c, "GET /api/things");
    return answer(c, "POST /api/things", { ...body, ...q, page: c.req.query("page") });
  })
  .put("/things/:id", async (c) => answer(c, "PUT /api/things/:id", await jsonBody(c, thing)));`;
  const r = readsOf(source, "/api");
  assert.deepEqual(r.raw, [
    "c.req.json( (in POST /api/things)",
    "c.req.query( (in POST /api/things)",
    "jsonBody( (in PUT /api/things/:id)",
  ]);
  assert.deepEqual(r.declared, [
    { part: "query", route: "GET /api/things", within: null },
    { part: "query", route: "GET /api/things", within: "POST /api/things" },
  ]);
  assert.deepEqual(r.routes, ["GET /api/things", "POST /api/things", "PUT /api/things/:id"]);
});

Deno.test("requests - every route reads its input through its contract entry, names itself, and every entry is read", async () => {
  const reads = await everyRead();
  const raw: string[] = [];
  const misnamed: string[] = [];
  const read = new Set<string>();
  for (const [file, r] of reads) {
    raw.push(...r.raw.map((x) => `routes/api/${file}: ${x}`));
    for (const d of r.declared) {
      read.add(`${d.part} ${d.route}`);
      // In a handler it names its own route; in a helper (outside the chain) a route of its module.
      const fine = d.within === null ? r.routes.includes(d.route) : d.within === d.route;
      if (!fine) misnamed.push(`routes/api/${file}: ${d.part} of ${d.route} read in ${d.within ?? "a helper"}`);
    }
    for (const within of r.streamed) {
      if (!within || !(within in STREAMED_FORMS)) misnamed.push(`routes/api/${file}: a streamed form in ${within}`);
      else read.add(`form ${within}`);
    }
  }
  assert.deepEqual(raw, [], "read input with bodyOf/queryOf/formOf/bytesOf(c, route): its schema is the contract's");
  assert.deepEqual(misnamed, [], "a route reads the input declared for itself");
  const declared = Object.entries(REQUESTS as Record<string, Record<string, unknown>>).flatMap(([route, shape]) =>
    (["body", "query", "form", "bytes"] as const).filter((p) => shape[p]).map((p) => `${p} ${route}`)
  );
  assert.deepEqual(declared.filter((d) => !read.has(d)), [], "declared input no route reads");
  assert.deepEqual(Object.keys(STREAMED_FORMS).filter((r) => !read.has(`form ${r}`)), [], "stale streamed forms");
});
