/**
 * Onboarding: after the first login, four short steps before the grid. Name and
 * birthdate (18+); a first picture (skippable, with why it matters); characteristics (skippable);
 * location (the three ways explained, GPS asked for with its reason). Each step saves at once
 * through the calls the app already makes (PUT /api/profile, the picture upload, the position
 * report); the step reached is kept on the server (POST /welcome), so leaving in the middle
 * resumes there. Finishing sends the point chosen on the last step with "done": the server saves
 * it before onboarding ends, so a member who finishes is in discovery at once however fast they
 * tap; the button is busy until then, and a failed save says so with a retry.
 */

import { MapPin } from "../components/icons.ts";
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { QueryProvider } from "./queries/client.tsx";
import { type ProfileView, useProfileMutation, useProfileQuery } from "./queries/profiles.ts";
import { useUploadMutation } from "./queries/pictures.ts";
import { type KnownLocation, useLocation } from "./queries/location.ts";
import { BriefPicture } from "../components/BriefPicture.tsx";
import { SCREEN_TEXTS } from "../domain/screenTexts.ts";
import { TEXTS } from "../domain/texts.ts";
import { ONBOARDING_STEPS, type OnboardingStep } from "../domain/onboarding.ts";
import { CharacteristicChecks } from "../components/CharacteristicChecks.tsx";
import { latestAdultBirthdate } from "../domain/age.ts";
import { UPLOAD_ACCEPT, uploadProblems } from "../domain/pictures.ts";

export interface OnboardingProps {
  step: OnboardingStep;
  /** The member's own profile. */
  profile: ProfileView;
  /** Their own last position report, if any. */
  known: KnownLocation | null;
}

/** The point chosen on the last step, saved by the server as part of finishing. */
interface FinishPoint {
  lat: number;
  lon: number;
  use: "OVERRIDE" | "DEVICE_GPS";
  hide: boolean;
}

/** A step's save that has not answered after this long is said to have failed (with a retry). */
export const STEP_TIMEOUT_MS = 12_000;

/**
 * Keeps the step reached on the server; "done" ends onboarding, and with `point` the server saves
 * it first (routes/pages/welcome.tsx): the member is in discovery once this resolves.
 */
async function keepStep(step: OnboardingStep | "done", point?: FinishPoint): Promise<void> {
  const body = new URLSearchParams({ step });
  if (point) {
    for (const [k, v] of Object.entries(point)) body.set(k, String(v));
  }
  const res = await fetch("/welcome", { method: "POST", body, signal: AbortSignal.timeout(STEP_TIMEOUT_MS) });
  if (res.status === 401) location.assign("/login");
  if (!res.ok) throw new Error(`${res.status} ${res.statusText}`);
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

function Steps({ step: first, profile, known }: OnboardingProps) {
  const [step, setStep] = useState(first);
  const [error, setError] = useState("");
  const p = useProfileQuery(profile.id, profile).data ?? profile;
  const save = useProfileMutation(profile.id);
  const index = ONBOARDING_STEPS.indexOf(step);

  async function go(to: OnboardingStep) {
    setError("");
    try {
      await keepStep(to);
      setStep(to);
      scrollTo(0, 0);
    } catch (e) {
      setError(message(e));
    }
  }
  const next = () => go(ONBOARDING_STEPS[index + 1]);
  const back = index > 0 && (
    <button
      type="button"
      className="link-button"
      onClick={() => go(ONBOARDING_STEPS[index - 1])}
    >
      {SCREEN_TEXTS.back}
    </button>
  );

  return (
    <div className="onboarding" data-step={step}>
      <p className="onboarding-progress">
        <span>{SCREEN_TEXTS.stepOf(index + 1, ONBOARDING_STEPS.length)}</span>
        <span className="onboarding-bar" aria-hidden="true">
          {ONBOARDING_STEPS.map((s, i) => <span key={s} className={i <= index ? "done" : undefined} />)}
        </span>
      </p>
      {step === "name" && <NameStep p={p} save={save} onDone={next} />}
      {step === "picture" && <PictureStep p={p} onNext={next} back={back} />}
      {step === "characteristics" && <CharacteristicsStep p={p} save={save} onNext={next} back={back} />}
      {step === "location" && (
        <LocationStep
          profileId={p.id}
          known={known}
          onDone={async (then, point) => {
            await keepStep("done", point);
            location.assign(then);
          }}
          back={back}
        />
      )}
      {error && <p className="error" role="alert">{error}</p>}
    </div>
  );
}

type Save = ReturnType<typeof useProfileMutation>;

function NameStep({ p, save, onDone }: { p: ProfileView; save: Save; onDone: () => void }) {
  const [name, setName] = useState(p.profilename);
  const [birthdate, setBirthdate] = useState(p.birthdate && /^\d{4}-\d\d-\d\d$/.test(p.birthdate) ? p.birthdate : "");
  const [error, setError] = useState("");
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!name.trim()) return setError(TEXTS.nameRequired);
    if (!birthdate) return setError(SCREEN_TEXTS.birthdateRequired);
    setError("");
    try {
      await save.mutateAsync({ profilename: name.trim(), birthdate });
      onDone();
    } catch (err) {
      setError(message(err));
    }
  }
  return (
    <form className="stack onboarding-step" onSubmit={submit} noValidate>
      <h1>{SCREEN_TEXTS.nameStep}</h1>
      <p className="muted">{SCREEN_TEXTS.nameHint}</p>
      <label>
        {TEXTS.name}
        <input value={name} onChange={(e) => setName(e.target.value)} maxLength={50} autoComplete="nickname" required />
      </label>
      <label>
        {TEXTS.birthdateLabel}
        <input
          type="date"
          value={birthdate}
          onChange={(e) => setBirthdate(e.target.value)}
          max={latestAdultBirthdate(Date.now())}
          min="1900-01-01"
          required
        />
      </label>
      {error && <p className="error" role="alert">{error}</p>}
      <div className="onboarding-actions">
        <button type="submit" className="primary" disabled={save.isPending}>{SCREEN_TEXTS.next}</button>
      </div>
    </form>
  );
}

function PictureStep({ p, onNext, back }: { p: ProfileView; onNext: () => void; back: ReactNode }) {
  const upload = useUploadMutation(p.id);
  const [error, setError] = useState("");
  const first = p.profilePicIds[0];
  async function choose(file: File | undefined) {
    if (!file) return;
    const problems = uploadProblems(file);
    if (problems.length) return setError(`Error: ${problems.join(" ")}`);
    setError("");
    try {
      await upload.mutateAsync({ file });
    } catch (e) {
      setError(`Error: ${message(e)}`);
    }
  }
  return (
    <div className="stack onboarding-step">
      <h1>{SCREEN_TEXTS.pictureStep}</h1>
      <p className="muted">{SCREEN_TEXTS.pictureWhy}</p>
      <div className="onboarding-picture">
        <BriefPicture picId={first} name={p.profilename} scale={512} nsfw={false} eager />
      </div>
      <label className="file-chooser">
        <input
          type="file"
          accept={UPLOAD_ACCEPT}
          className="visually-hidden"
          disabled={upload.isPending}
          onChange={(e) => choose(e.target.files?.[0])}
        />
        <span className={first ? "button" : "button primary"}>
          {upload.isPending ? TEXTS.sending : SCREEN_TEXTS.choosePicture}
        </span>
      </label>
      {error && <p className="error" role="alert">{error}</p>}
      <div className="onboarding-actions">
        {back}
        <button type="button" className={first ? "primary" : undefined} onClick={onNext} disabled={upload.isPending}>
          {first ? SCREEN_TEXTS.next : SCREEN_TEXTS.skip}
        </button>
      </div>
    </div>
  );
}

function CharacteristicsStep(
  { p, save, onNext, back }: { p: ProfileView; save: Save; onNext: () => void; back: ReactNode },
) {
  const [chars, setChars] = useState(p.characteristics);
  const [error, setError] = useState("");
  function toggle(value: string, on: boolean) {
    const next = on ? [...chars, value] : chars.filter((c) => c !== value);
    setChars(next);
    save.mutate({ characteristics: next }, { onError: (e) => setError(message(e)), onSuccess: () => setError("") });
  }
  return (
    <div className="stack onboarding-step">
      <h1>{SCREEN_TEXTS.characteristicsStep}</h1>
      <p className="muted">{SCREEN_TEXTS.characteristicsHint}</p>
      <CharacteristicChecks chosen={chars} onToggle={toggle} />
      {error && <p className="error" role="alert">{error}</p>}
      <div className="onboarding-actions">
        {back}
        <button type="button" className={chars.length ? "primary" : undefined} onClick={onNext}>
          {chars.length ? SCREEN_TEXTS.next : SCREEN_TEXTS.skip}
        </button>
      </div>
    </div>
  );
}

function LocationStep({ profileId, known, onDone, back }: {
  profileId: string;
  known: KnownLocation | null;
  /** Saves the point and ends onboarding, then leaves for `then`; rejects when the save failed. */
  onDone: (then: string, point: FinishPoint) => Promise<void>;
  back: ReactNode;
}) {
  // Starting the reporter places the member at once (a random point near Phoenix unless they chose before).
  const loc = useLocation(profileId, known);
  /** Where the member goes once saved (a finish under way), and whether the last try failed. */
  const [leaving, setLeaving] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const failure = useRef<HTMLDivElement>(null);
  // The failure is said where the member looks: above the actions bar, not under it.
  useEffect(() => {
    if (failed !== null) failure.current?.scrollIntoView({ block: "nearest" });
  }, [failed]);
  const mode = loc.type === "DEVICE_GPS"
    ? SCREEN_TEXTS.modeGps
    : loc.type === "OVERRIDE"
    ? SCREEN_TEXTS.modeWalk
    : SCREEN_TEXTS.modeRandom;
  /**
   * Finishes with the point shown now (the random one kept, Walk's, or the GPS fix): the server
   * saves it before onboarding ends, so leaving at once loses nothing. Busy until it answers;
   * then the next screen, or an error with a retry.
   */
  async function finish(then: string, type = loc.type) {
    if (leaving) return;
    setLeaving(then);
    setFailed(null);
    try {
      await onDone(then, {
        lat: loc.lat,
        lon: loc.lon,
        use: type === "DEVICE_GPS" ? "DEVICE_GPS" : "OVERRIDE",
        hide: loc.hide,
      });
    } catch (e) {
      console.warn("finishing onboarding failed:", message(e));
      setFailed(then);
      setLeaving(null);
    }
  }
  const busy = leaving !== null;
  return (
    <div className="stack onboarding-step" aria-busy={busy}>
      <h1>{SCREEN_TEXTS.locationStep}</h1>
      <p className="muted">{SCREEN_TEXTS.locationHint}</p>
      <ul className="onboarding-modes">
        <li className={loc.type === "RANDOM" ? "current" : undefined}>
          <strong>{SCREEN_TEXTS.modeRandom}</strong>
          <span>{SCREEN_TEXTS.modeRandomWhy}</span>
        </li>
        <li className={loc.type === "OVERRIDE" ? "current" : undefined}>
          <strong>{SCREEN_TEXTS.modeWalk}</strong>
          <span>{TEXTS.walkMessage}</span>
          <button
            type="button"
            onClick={() => {
              loc.setType("OVERRIDE");
              void finish("/search/map", "OVERRIDE");
            }}
            disabled={!loc.ready || busy}
          >
            {SCREEN_TEXTS.useWalk}
          </button>
        </li>
        <li className={loc.type === "DEVICE_GPS" ? "current" : undefined}>
          <strong>{SCREEN_TEXTS.modeGps}</strong>
          <span>{SCREEN_TEXTS.modeGpsWhy}</span>
          <button
            type="button"
            className={loc.type === "DEVICE_GPS" ? undefined : "primary"}
            onClick={() => loc.setType("DEVICE_GPS")}
            disabled={!loc.ready || busy || loc.type === "DEVICE_GPS"}
          >
            <MapPin className="icon" aria-hidden="true" /> {SCREEN_TEXTS.useGps}
          </button>
        </li>
      </ul>
      <p className="onboarding-now" role="status">
        {busy ? SCREEN_TEXTS.finishing : loc.ready && SCREEN_TEXTS.locationNow(mode)}
        {!busy && loc.ready && loc.type === "DEVICE_GPS" && !loc.gpsNotice && <>{" · "}{TEXTS.gpsMessage}</>}
      </p>
      {loc.gpsNotice && <p className="error" role="alert">{loc.gpsNotice}</p>}
      {failed !== null && (
        <div className="error onboarding-failed" role="alert" ref={failure}>
          <p>{SCREEN_TEXTS.finishFailed}</p>
          <button type="button" onClick={() => void finish(failed)} disabled={busy}>
            {SCREEN_TEXTS.finishRetry}
          </button>
        </div>
      )}
      <div className="onboarding-actions">
        {back}
        <button
          type="button"
          className="primary"
          onClick={() => void finish("/search/tile")}
          disabled={!loc.ready || busy}
          aria-busy={leaving === "/search/tile"}
        >
          {leaving === "/search/tile" ? SCREEN_TEXTS.finishing : SCREEN_TEXTS.finish}
        </button>
      </div>
    </div>
  );
}

export default function Onboarding(props: OnboardingProps) {
  return (
    <QueryProvider>
      <Steps {...props} />
    </QueryProvider>
  );
}
