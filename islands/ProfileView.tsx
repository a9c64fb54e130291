/**
 * A member's profile (spec §2 Profile view), photo first: the public pictures fill the width at
 * the top (4:5), swiped through with dots (each opens the carousel), name and age over them,
 * online or last seen and the distance under them; then height, weight, the characteristics by
 * category ('i'm so boring' when none), and the description collapsed to 13em with 'Show More
 * Biography'. The owner also sees their private pictures and an edit link. Like buttons, notes, actions and chat are separate islands the page renders
 * beside this one (routes/pages/profile.tsx).
 */

import { MapPin } from "../components/icons.ts";
import { useEffect, useRef, useState } from "react";
import { QueryProvider } from "./queries/client.tsx";
import { type ProfileView as Profile, useProfileQuery } from "./queries/profiles.ts";
import { useShowsNsfw } from "./useShowsNsfw.ts";
import { CHARACTERISTIC_CATEGORIES, characteristicLabel, NO_CHARACTERISTICS } from "../domain/characteristics.ts";
import { largePicImgProps, picImgProps } from "../domain/pictures.ts";
import { usePresence } from "./queries/presence.ts";
import { BriefPicture, briefPicUrls } from "../components/BriefPicture.tsx";
import { OnlineDot } from "../components/OnlineDot.tsx";
import { VerifiedBadge } from "../components/VerifiedBadge.tsx";
import { SeenAgo } from "../components/Time.tsx";
import { distanceText, profileUrl } from "../domain/format.ts";
import { TEXTS } from "../domain/texts.ts";
import { heightText, weightText } from "../domain/measures.ts";
import { SCREEN_TEXTS } from "../domain/screenTexts.ts";
import { UI_TEXTS } from "../domain/uiTexts.ts";
import type { PicInfo } from "../domain/shapes/pictures.ts";
import { phrase } from "../domain/phrases.ts";
import { FEEL_TEXTS } from "../domain/feelTexts.ts";
import { GRID_ORDER_KEY } from "./queries/briefs.ts";
import { fetchAhead, inPageLink, openInPage } from "./inPage.ts";

export interface ProfileViewProps {
  profile: Profile;
  /** From the viewer to this member (shown positions); null: "nearby" only; absent: unknown or one's own. */
  distanceMeters?: number | null;
}

/** The carousel address of one picture among a list (spec §2: profileId, id, ids). */
function carouselHref(profileId: string, id: string, ids: readonly string[]): string {
  const q = new URLSearchParams({ profileId, id, ids: ids.join(",") });
  return `/profilePicCarousel?${q}`;
}

function PicGrid({ profileId, ids, pictures, label }: {
  profileId: string;
  ids: string[];
  pictures: PicInfo[];
  label: string;
}) {
  const showNsfw = useShowsNsfw();
  const byId = new Map(pictures.map((p) => [p.id, p]));
  const shown = ids.filter((id) => byId.has(id));
  return (
    <ul className="tiles" aria-label={label}>
      {shown.map((id, i) => {
        const pic = byId.get(id)!;
        return (
          <li key={id}>
            <a className="tile" href={carouselHref(profileId, id, shown)}>
              <img
                {...picImgProps(pic, 256, showNsfw)}
                alt={SCREEN_TEXTS.pictureOf(i + 1, shown.length)}
                loading={i < 4 ? "eager" : "lazy"}
              />
              {pic.nsfw && <span className="pic-badge">NSFW</span>}
            </a>
          </li>
        );
      })}
    </ul>
  );
}

/** The description, collapsed to 13em with a control when it is longer (spec §2, §9). */
function Biography({ text }: { text: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);
  const [overflows, setOverflows] = useState(true);
  useEffect(() => {
    const el = ref.current;
    if (el && !open) setOverflows(el.scrollHeight > el.clientHeight + 1);
  }, [text, open]);
  if (!text.trim()) return null;
  return (
    <section className="bio-section" aria-label={UI_TEXTS.biography}>
      {/* The member's own words run in their own direction (English in an Arabic page, or the reverse). */}
      <div
        ref={ref}
        className={open ? "bio" : overflows ? "bio collapsed faded" : "bio collapsed"}
        id="bio"
        dir="auto"
      >
        {text}
      </div>
      {overflows && (
        <button
          type="button"
          className="link-button"
          aria-expanded={open}
          aria-controls="bio"
          onClick={() => setOpen(!open)}
        >
          {open ? UI_TEXTS.showLessBiography : UI_TEXTS.showMoreBiography}
        </button>
      )}
    </section>
  );
}

/** Characteristics grouped by category; 'i'm so boring' when there are none (spec §3). */
export function Characteristics({ values }: { values: string[] }) {
  if (values.length === 0) return <p className="boring">{phrase(NO_CHARACTERISTICS)}</p>;
  const have = new Set(values);
  return (
    <dl className="chars">
      {CHARACTERISTIC_CATEGORIES.map((cat) => {
        const items = cat.items.filter((i) => have.has(i.value));
        if (items.length === 0) return null;
        return (
          <div key={cat.name} className="chars-row">
            <dt>{cat.name}</dt>
            <dd>
              {items.map((i) => <span key={i.value} className="chip">{characteristicLabel(i.value)}</span>)}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

/**
 * How wide the large pictures show (static/css/profile-view.css): the screen's width on a phone,
 * at most 420 px beside the profile from 900 px on.
 */
const HERO_SIZES = "(min-width: 900px) 420px, 100vw";

/** The public pictures, first one filling the width (4:5), swiped through with dots; name and age over it. */
function Hero({ p, showNsfw }: { p: Profile; showNsfw: boolean }) {
  const byId = new Map(p.pictures.map((x) => [x.id, x]));
  const ids = p.profilePicIds.filter((id) => byId.has(id));
  const track = useRef<HTMLDivElement>(null);
  const [at, setAt] = useState(0);
  // Lazy pictures clipped by the sideways scroller never load by themselves (the browser's lazy
  // loading looks at the window only): once hydrated, the next two beyond the one shown load.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const n = ids.length;
  const go = (i: number) => {
    const el = track.current;
    if (el) el.scrollTo({ left: Math.max(0, Math.min(n - 1, i)) * el.clientWidth, behavior: "smooth" });
  };
  return (
    <div className="profile-hero">
      <div
        className="hero-track"
        ref={track}
        onScroll={(e) => {
          const el = e.currentTarget;
          setAt(Math.round(el.scrollLeft / Math.max(1, el.clientWidth)));
        }}
      >
        {ids.map((id, i) => {
          const pic = byId.get(id)!;
          return (
            <a
              key={id}
              className="hero-slide"
              href={carouselHref(p.id, id, ids)}
              // The first picture shows at once in the grid's size (in the cache from the tile) until
              // the large one has loaded over it.
              style={i === 0 ? { backgroundImage: tileImageSet(pic, showNsfw) } : undefined}
            >
              <img
                {...largePicImgProps(pic, HERO_SIZES, showNsfw)}
                {
                  // The photo a tap opens the profile for: fetched before the page's other pictures.
                  ...(i === 0 ? { elementtiming: "profile-photo", fetchPriority: "high" } : {})
                }
                alt={SCREEN_TEXTS.pictureOf(i + 1, n)}
                loading={i === 0 || (hydrated && i <= at + 2) ? "eager" : "lazy"}
                draggable={false}
              />
              {pic.nsfw && <span className="pic-badge">NSFW</span>}
            </a>
          );
        })}
        {n === 0 && (
          <div className="hero-slide">
            <BriefPicture picId={undefined} name={p.profilename} scale={1024} nsfw={false} />
          </div>
        )}
      </div>
      {n > 1 && (
        <>
          <div className="hero-dots">
            {ids.map((id, i) => (
              <button
                key={id}
                type="button"
                className="hero-dot"
                aria-label={SCREEN_TEXTS.pictureOf(i + 1, n)}
                aria-current={i === at ? "true" : undefined}
                onClick={() => go(i)}
              />
            ))}
          </div>
          <button
            type="button"
            className="hero-arrow prev"
            aria-label={SCREEN_TEXTS.previousPicture}
            disabled={at === 0}
            onClick={() => go(at - 1)}
          >
            ‹
          </button>
          <button
            type="button"
            className="hero-arrow next"
            aria-label={SCREEN_TEXTS.nextPicture}
            disabled={at >= n - 1}
            onClick={() => go(at + 1)}
          >
            ›
          </button>
        </>
      )}
      <div className="hero-caption">
        <h1>
          {p.profilename}
          {p.verified && <VerifiedBadge size={22} />}
        </h1>
        {p.age !== null && <span className="hero-age">{p.age}</span>}
      </div>
    </div>
  );
}

/** Online now or last seen, and the distance: the line under the picture. */
function Whereabouts({ p, distanceMeters }: { p: Profile; distanceMeters?: number | null }) {
  const presence = usePresence(p.own ? [] : [p.id])[p.id];
  const distance = distanceMeters === undefined ? "" : distanceText(distanceMeters);
  if (p.own || (!presence && !distance)) return null;
  return (
    <p className="profile-status">
      {presence?.online && (
        <span className="status-online">
          <OnlineDot online />
          {TEXTS.onlineNow}
        </span>
      )}
      {presence && !presence.online && presence.lastSeen && (
        <span>
          {TEXTS.lastSeen} <SeenAgo ts={presence.lastSeen} />
        </span>
      )}
      {distance && (
        <span className="status-distance">
          <MapPin className="icon" aria-hidden="true" /> {SCREEN_TEXTS.away(distance)}
        </span>
      )}
    </p>
  );
}

function ProfileBody({ profile: initial, distanceMeters }: ProfileViewProps) {
  const p = useProfileQuery(initial.id, initial).data ?? initial;
  const showNsfw = useShowsNsfw();
  const facts = [
    // The labels in the reader's language, both values in one system (theirs: domain/measures.ts).
    p.height ? `${TEXTS.height} ${heightText(p.height)}` : null,
    p.weight ? `${TEXTS.weight} ${weightText(p.weight)}` : null,
  ].filter(Boolean);
  const around = useGridNeighbours(p.id);
  const swipe = useRef<{ x: number; y: number } | null>(null);
  return (
    <article className="profile-view">
      <Hero p={p} showNsfw={showNsfw} />
      <div
        className="profile-info"
        onTouchStart={(e) => (swipe.current = { x: e.touches[0].clientX, y: e.touches[0].clientY })}
        onTouchEnd={(e) => {
          const start = swipe.current, t = e.changedTouches[0];
          swipe.current = null;
          if (!start) return;
          const dx = t.clientX - start.x, dy = t.clientY - start.y;
          if (Math.abs(dx) < 60 || Math.abs(dx) < 2 * Math.abs(dy)) return;
          // A swipe towards the start of the line goes forward (to the left, or to the right in Arabic).
          const forward = document.dir === "rtl" ? dx > 0 : dx < 0;
          const to = forward ? around.next : around.prev;
          if (to) openInPage(profileUrl(to));
        }}
      >
        {(around.prev || around.next) && (
          <nav className="profile-step">
            {around.prev && (
              <a href={profileUrl(around.prev)} rel="prev" {...inPageLink}>‹ {FEEL_TEXTS.previousProfile}</a>
            )}
            {around.next && <a href={profileUrl(around.next)} rel="next" {...inPageLink}>{FEEL_TEXTS.nextProfile} ›</a>}
          </nav>
        )}
        <Whereabouts p={p} distanceMeters={distanceMeters} />
        {facts.length > 0 && <p className="profile-facts">{facts.join(" · ")}</p>}
        {p.own && (
          <p className="links">
            <a href="/profileEdit">{UI_TEXTS.editProfile}</a>
            {p.profilePicIds.length === 0 && (
              <>
                {" · "}
                <a href="/profilePicUpload">{SCREEN_TEXTS.addPicture}</a>
              </>
            )}
          </p>
        )}
        {p.own && p.profilePicIdsPrivate.length > 0 && (
          <section className="profile-private" aria-label={UI_TEXTS.privatePics}>
            <h2>{UI_TEXTS.privatePics}</h2>
            <p className="muted">{UI_TEXTS.privatePicsHint}</p>
            <PicGrid profileId={p.id} ids={p.profilePicIdsPrivate} pictures={p.pictures} label="Private Pics" />
          </section>
        )}
        <Characteristics values={p.characteristics} />
        <Biography text={p.description} />
      </div>
    </article>
  );
}

/**
 * The profiles before and after this one in the grid it was opened from (islands/ProfileTiles.tsx
 * keeps the grid's order for the tab), after hydration, fetched ahead; none when it was opened
 * from elsewhere.
 */
function useGridNeighbours(id: string): { prev?: string; next?: string } {
  const [around, setAround] = useState<{ prev?: string; next?: string }>({});
  useEffect(() => {
    try {
      const ids: unknown = JSON.parse(sessionStorage.getItem(GRID_ORDER_KEY) ?? "[]");
      const i = Array.isArray(ids) ? ids.indexOf(id) : -1;
      if (i < 0) return;
      const prev = (ids as string[])[i - 1], next = (ids as string[])[i + 1];
      setAround({ prev, next });
      // A swipe or a tap on either opens it at once: both are fetched ahead.
      for (const to of [next, prev]) if (to) fetchAhead(profileUrl(to));
    } catch { /* no order kept: no neighbours */ }
  }, [id]);
  return around;
}

export default function ProfileView(props: ProfileViewProps) {
  return (
    <QueryProvider>
      <ProfileBody {...props} />
    </QueryProvider>
  );
}

/** The picture as the grid shows it (1x and 2x), a CSS image-set. */
function tileImageSet(pic: Parameters<typeof picImgProps>[0], showNsfw: boolean): string {
  // The grid's own addresses (no generation in them), so the copy comes from the cache.
  const [x1, x2] = briefPicUrls(pic.id, 256, showNsfw);
  return `image-set(url("${x1}") 1x, url("${x2}") 2x)`;
}
