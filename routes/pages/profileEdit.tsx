/** The Profile Editor page (/profileEdit, spec §2): the member's own profile, handed to the editor island. */

import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { titledPage } from "./render.tsx";
import { Island } from "../../components/Island.tsx";
import ProfileEditor from "../../islands/ProfileEditor.tsx";
import { loadProfileView } from "../../kv/profileViews.ts";
import { notFoundPage } from "./info.tsx";
import { listCropSuggestions } from "../../kv/games/helpPhotos.ts";
import { UI_TEXTS } from "../../domain/uiTexts.ts";

export async function profileEditPage(c: Context<AppEnv>) {
  const caller = c.get("caller")!;
  const profile = await loadProfileView(caller.profileId, caller.profileId);
  if (!profile) return notFoundPage(c);
  const suggestions = (await listCropSuggestions(caller.profileId)).length;
  return titledPage(
    c,
    "Profile Editor",
    <>
      {suggestions > 0 && (
        <p className="notice">
          {`Members suggested ${suggestions === 1 ? "a crop" : `${suggestions} crops`} for your pictures. `}
          <a href="/games/photocrop">{UI_TEXTS.seeSuggestions}</a>
        </p>
      )}
      <Island of={ProfileEditor} props={{ profile }} />
    </>,
  );
}
