/**
 * What an instance's start loads (decision 0243): the packages a process needs only when a member
 * uploads a picture, a push or a mail is sent, a place's country is asked, a password or passkey is
 * checked, an export is zipped, a secret chat's keys are checked, sockets are served on a port of
 * their own, or the metrics are asked for are loaded at that first use (domain/firstUse.ts), not by
 * main.ts's static imports; the icons come one module each, never from lucide-react's entry (its
 * CommonJS build of every icon for Deno); and no browser-only code: react-dom/client (the islands'
 * hydration) is the browser's. The module graph is read from `deno info`, following
 * static imports only.
 */

import assert from "node:assert/strict";

/** Packages main.ts must not reach by static imports. */
const AT_FIRST_USE = [
  "sharp",
  "web-push",
  "nodemailer",
  "@rapideditor/country-coder",
  "@simplewebauthn/server",
  "@node-rs/argon2",
  "fflate",
  "ts-mls",
  "ws",
  "prom-client",
  "esbuild",
];

/** The npm modules (resolved `npm:/name@version/subpath` specifiers) `root` reaches by static imports. */
async function staticNpmModules(root: string): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", root],
    cwd: new URL("..", import.meta.url).pathname,
    stderr: "inherit",
  }).output();
  assert.ok(out.success, "deno info failed");
  const graph = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    roots: string[];
    modules: { specifier: string; dependencies?: { isDynamic?: boolean; code?: { specifier: string } }[] }[];
    redirects: Record<string, string>;
  };
  const bySpecifier = new Map(graph.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>(), npm = new Set<string>();
  const stack = [...graph.roots];
  while (stack.length) {
    const s = stack.pop()!;
    if (seen.has(s)) continue;
    seen.add(s);
    if (s.startsWith("npm:")) {
      npm.add(s);
      continue;
    }
    for (const d of bySpecifier.get(s)?.dependencies ?? []) {
      if (d.isDynamic || !d.code) continue;
      stack.push(graph.redirects[d.code.specifier] ?? d.code.specifier);
    }
  }
  return [...npm].sort();
}

/** `npm:/@scope/name@1.2.3/sub/path` → its package name and subpath. */
function packageOf(specifier: string): { name: string; subpath: string } {
  const m = specifier.match(/^npm:\/?((?:@[^/]+\/)?[^@/]+)@[^/]+(\/.*)?$/);
  assert.ok(m, specifier);
  return { name: m[1], subpath: m[2] ?? "" };
}

Deno.test("start - main.ts reaches none of the packages loaded at their first use, and no icon through lucide-react's entry", async () => {
  const reached = (await staticNpmModules("main.ts")).map(packageOf);
  assert.ok(reached.some((p) => p.name === "hono"), "the graph is read: main.ts reaches hono");
  assert.deepEqual(reached.filter((p) => AT_FIRST_USE.includes(p.name)).map((p) => p.name), []);
  const icons = reached.filter((p) => p.name === "lucide-react");
  assert.ok(icons.length > 0, "the icons are reached");
  assert.deepEqual(icons.filter((p) => !p.subpath.startsWith("/icons/")), []);
});

Deno.test("start - main.ts reaches no browser-only module: react-dom/client is the islands' hydration in the page", async () => {
  const reactDom = (await staticNpmModules("main.ts")).map(packageOf).filter((p) => p.name === "react-dom");
  assert.ok(reactDom.some((p) => p.subpath === "/server"), "the graph is read: main.ts reaches react-dom/server");
  assert.deepEqual(reactDom.filter((p) => p.subpath === "/client").map((p) => p.name + p.subpath), []);
});
