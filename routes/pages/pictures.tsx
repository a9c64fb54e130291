/**
 * The picture screens (spec §2): upload (/profilePicUpload), the crop, zoom and rotate editor
 * (/profilePicEdit?id=) and the carousel (/profilePicCarousel?profileId=&id=&ids=).
 */

import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { renderPage } from "./render.tsx";
import { Island } from "../../components/Island.tsx";
import PicUpload from "../../islands/PicUpload.tsx";
import PicEditor from "../../islands/PicEditor.tsx";
import PicCarousel from "../../islands/PicCarousel.tsx";
import { isId } from "../../kv/ids.ts";
import { getPic } from "../../kv/pictures.ts";
import { loadProfileView } from "../../kv/profileViews.ts";
import { carouselLikes } from "./profilePanels.tsx";
import { UI_TEXTS } from "../../domain/uiTexts.ts";
import { phrase } from "../../domain/phrases.ts";

function Unavailable({ text }: { text: string }) {
  return (
    <p className="notice">
      {text} <a href="/profileEdit">{UI_TEXTS.backToEditor}</a>
    </p>
  );
}

export function picUploadPage(c: Context<AppEnv>) {
  const caller = c.get("caller")!;
  const replace = c.req.query("replace_id");
  return renderPage(
    c,
    "Profile Picture Upload",
    <section className="page">
      <h1>{UI_TEXTS.profilePictureUpload}</h1>
      <Island
        of={PicUpload}
        props={{ profileId: caller.profileId, ...(replace && isId(replace) ? { replaceId: replace } : {}) }}
      />
    </section>,
  );
}

export async function picEditPage(c: Context<AppEnv>) {
  const caller = c.get("caller")!;
  const id = c.req.query("id") ?? "";
  const pic = isId(id) ? await getPic(id) : null;
  const own = pic?.profileId === caller.profileId ? pic : null;
  return renderPage(
    c,
    "Edit Picture",
    <section className="page">
      <h1>{UI_TEXTS.editPicture}</h1>
      {own
        ? (
          <Island
            of={PicEditor}
            props={{
              profileId: caller.profileId,
              picId: own.id,
              sourceSrc: `/api/profile-pic/${own.id}/source`,
              sourceWidth: own.sourceWidth,
              sourceHeight: own.sourceHeight,
              crop: own.crop ? { ...own.crop, rotate: own.crop.rotate ?? 0 } : null,
            }}
          />
        )
        : <Unavailable text={phrase("This picture is not one of yours, or it was removed.")} />}
    </section>,
  );
}

export async function picCarouselPage(c: Context<AppEnv>) {
  const caller = c.get("caller")!;
  const profileId = c.req.query("profileId");
  const id = c.req.query("id");
  if (!profileId || !id) {
    return renderPage(
      c,
      "Pictures",
      <section className="page carousel-page">
        <div className="carousel-loading" role="status" aria-busy="true">{UI_TEXTS.loading}</div>
      </section>,
    );
  }
  const profile = isId(profileId) ? await loadProfileView(profileId, caller.profileId) : null;
  const visible = new Map((profile?.pictures ?? []).map((p) => [p.id, p]));
  const asked = c.req.query("ids")?.split(",").map((s) => s.trim()).filter(Boolean);
  const order = asked?.length ? asked : profile?.profilePicIds ?? [];
  const pictures = order.flatMap((x) => visible.get(x) ?? []);
  const start = pictures.findIndex((p) => p.id === id);
  return renderPage(
    c,
    profile ? `Pictures of ${profile.profilename}` : "Pictures",
    <section className="page carousel-page">
      {profile && start >= 0
        ? (
          <Island
            of={PicCarousel}
            props={{
              profileId: profile.id,
              profileName: profile.profilename,
              pictures,
              start,
              likes: await carouselLikes(caller.profileId, profile, pictures.map((p) => p.id)),
            }}
          />
        )
        : <Unavailable text="This picture is not available." />}
    </section>,
  );
}
