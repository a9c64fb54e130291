/** Commit hash and timestamp of the running backend (spec: Version entity). */

import type { Version } from "../domain/version.ts";

let cached: Version | undefined;

/** Reads GIT_COMMIT / GIT_COMMIT_TS, else asks git once, else "unknown". */
export function backendVersion(): Version {
  if (cached) return cached;
  const hash = Deno.env.get("GIT_COMMIT"), ts = Deno.env.get("GIT_COMMIT_TS");
  if (hash) return cached = { gitCommitHash: hash, gitCommitTs: ts ?? "" };
  try {
    const out = new Deno.Command("git", { args: ["log", "-1", "--format=%H %cI"], stderr: "null" }).outputSync();
    const [h, t] = new TextDecoder().decode(out.stdout).trim().split(" ");
    if (h) return cached = { gitCommitHash: h, gitCommitTs: t ?? "" };
  } catch { /* no git */ }
  return cached = { gitCommitHash: "unknown", gitCommitTs: "" };
}
