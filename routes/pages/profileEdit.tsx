/** The Profile Editor page (/profileEdit, spec §2): the member's own profile, handed to the editor island. */

import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { renderPage } from "./render.tsx";
import { Island } from "../../components/Island.tsx";
import ProfileEditor from "../../islands/ProfileEditor.tsx";
import { loadProfileView } from "../../kv/profiles.ts";
import { notFoundPage } from "./info.tsx";

export async function profileEditPage(c: Context<AppEnv>) {
  const caller = c.get("caller")!;
  const profile = await loadProfileView(caller.profileId, caller.profileId);
  if (!profile) return notFoundPage(c);
  return renderPage(
    c,
    "Profile Editor",
    <section className="page">
      <h1>Profile Editor</h1>
      <Island of={ProfileEditor} props={{ profile }} />
    </section>,
  );
}
