/**
 * A member's profile (spec §2 Profile view): name, age, height, weight, the pictures (to the
 * carousel), the characteristics by category ('i'm so boring' when none), and the description
 * collapsed to 13em with 'Show More Biography'. The owner also sees their private pictures and
 * an edit link. Like buttons, notes, actions and chat are separate islands the page renders
 * beside this one (routes/pages/profile.tsx).
 */

import { useEffect, useRef, useState } from "react";
import { QueryProvider } from "./queries/client.tsx";
import { type ProfileView as Profile, useProfileQuery } from "./queries/profiles.ts";
import { useShowsNsfw } from "./useShowsNsfw.ts";
import { CHARACTERISTIC_CATEGORIES, characteristicLabel, NO_CHARACTERISTICS } from "../domain/characteristics.ts";
import { picImgProps } from "../domain/pictures.ts";
import type { PicInfo } from "../kv/pictures.ts";

export interface ProfileViewProps {
  profile: Profile;
}

/** The carousel address of one picture among a list (spec §2: profileId, id, ids). */
export function carouselHref(profileId: string, id: string, ids: readonly string[]): string {
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
              <img {...picImgProps(pic, 256, showNsfw)} alt={`Picture ${i + 1}`} loading={i < 4 ? "eager" : "lazy"} />
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
    <section className="bio-section" aria-label="Biography">
      <div ref={ref} className={open ? "bio" : overflows ? "bio collapsed faded" : "bio collapsed"} id="bio">
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
          {open ? "Show Less Biography" : "Show More Biography"}
        </button>
      )}
    </section>
  );
}

/** Characteristics grouped by category; 'i'm so boring' when there are none (spec §3). */
export function Characteristics({ values }: { values: string[] }) {
  if (values.length === 0) return <p className="boring">{NO_CHARACTERISTICS}</p>;
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

function ProfileBody({ profile: initial }: ProfileViewProps) {
  const p = useProfileQuery(initial.id, initial).data ?? initial;
  const facts = [
    p.age !== null ? `Age ${p.age}` : null,
    p.height ? `Height ${p.height}` : null,
    p.weight ? `Weight ${p.weight}` : null,
  ].filter(Boolean);
  return (
    <article className="profile-view">
      <header className="profile-head">
        <h1>{p.profilename}</h1>
        {facts.length > 0 && <p className="profile-facts">{facts.join(" · ")}</p>}
        {p.own && (
          <p className="links">
            <a href="/profileEdit">Edit Profile</a>
          </p>
        )}
      </header>
      {p.profilePicIds.length > 0
        ? <PicGrid profileId={p.id} ids={p.profilePicIds} pictures={p.pictures} label="Public Pics" />
        : <p className="muted">{p.own ? "You have no public pictures yet." : "No pictures yet."}</p>}
      {p.own && p.profilePicIdsPrivate.length > 0 && (
        <section className="profile-private" aria-label="Private Pics">
          <h2>Private Pics</h2>
          <p className="muted">Only you see these, and members you send them to in a chat.</p>
          <PicGrid profileId={p.id} ids={p.profilePicIdsPrivate} pictures={p.pictures} label="Private Pics" />
        </section>
      )}
      <Characteristics values={p.characteristics} />
      <Biography text={p.description} />
    </article>
  );
}

export default function ProfileView(props: ProfileViewProps) {
  return (
    <QueryProvider>
      <ProfileBody {...props} />
    </QueryProvider>
  );
}
