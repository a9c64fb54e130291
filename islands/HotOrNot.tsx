/**
 * Hot or Not (docs/decisions/0154-hot-or-not.md): vote on two pictures of one anonymous member
 * (the better first picture, or Skip; the vote goes through the device's outbox like a like, so
 * it is kept while offline), test 2 to 4 of one's own public pictures and read the private result,
 * 'Put the best first', and 'Keep my best picture first' with its Undo.
 */

import { useEffect, useRef, useState } from "react";
import { api, ApiFailure } from "./queries/api.ts";
import { writeThroughOutbox } from "./queries/outbox.ts";
import { useShowsNsfw } from "./useShowsNsfw.ts";
import { BriefPicture } from "../components/BriefPicture.tsx";
import { GAME_TEXTS } from "../domain/games.ts";
import { apiPath } from "../domain/apiPath.ts";
import { HOT_MAX_PICS, HOT_MIN_PICS } from "../domain/hotOrNot.ts";
import type { ApiAnswer } from "../domain/contract.ts";
import type { HotChoice, HotPair, HotTestView } from "../domain/shapes/hotOrNot.ts";
import { BackToGames } from "../components/BackToGames.tsx";

type State = ApiAnswer<"GET /api/games/hotornot">;

export interface HotOrNotProps {
  state: State;
}

const T = () => GAME_TEXTS.hotOrNot;
const pct = (x: number) => Math.round(x * 100);
const failure = (e: unknown) => e instanceof ApiFailure && e.status < 500 ? e.message : T().failed;

/** A picture of one's own or of the pair: the NSFW route only when this device shows NSFW. */
function Pic({ picId, label, nsfw }: { picId: string; label: string; nsfw: boolean }) {
  return <BriefPicture picId={picId} name={label} scale={256} nsfw={nsfw} eager />;
}

/** The pair to vote on, the two taps and Skip. */
function Voting({ onCredits }: { onCredits: (n: number) => void }) {
  const nsfw = useShowsNsfw();
  const [pair, setPair] = useState<HotPair | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState("");
  const [error, setError] = useState("");
  const shownAt = useRef(0);

  const load = async (showNsfw: boolean) => {
    try {
      const r = await api<ApiAnswer<"GET /api/games/hotornot/next">>(
        apiPath("GET /api/games/hotornot/next", {}, { nsfw: showNsfw ? "1" : "0" }),
      );
      setPair(r.item);
      onCredits(r.credits);
      shownAt.current = performance.now();
    } catch (e) {
      setError(failure(e));
    } finally {
      setLoaded(true);
    }
  };
  useEffect(() => void load(nsfw), [nsfw]);

  const vote = async (choice: HotChoice) => {
    if (!pair || busy) return;
    setBusy(true);
    setError("");
    const ms = Math.round(performance.now() - shownAt.current);
    try {
      const r = await writeThroughOutbox("PUT /api/games/hotornot/vote", {
        testId: pair.testId,
        deal: pair.deal,
        choice,
        ms,
      });
      if (!r) {
        // Offline: the vote waits on the device; the next pair comes when the connection is back.
        setNote(T().queued);
        setPair(null);
        addEventListener("online", () => void load(nsfw), { once: true });
        setBusy(false);
        return;
      } else {
        onCredits(r.credits);
        setNote(
          choice === "SKIP"
            ? T().skipped
            : r.counted
            ? T().counted
            : r.why === "FAST"
            ? T().notCountedFast
            : T().notCountedSide,
        );
      }
    } catch (e) {
      setNote(e instanceof Error && e.message ? e.message : T().failed);
    }
    await load(nsfw);
    setBusy(false);
  };

  return (
    <section className="hot-vote" aria-labelledby="hot-vote-title">
      <h2 id="hot-vote-title">{T().voteTitle}</h2>
      <p className="muted">{T().voteHelp}</p>
      {pair
        ? (
          <>
            {/* Left and right are the screen's sides in every language: the side lean is about them. */}
            <div className="hot-pair" dir="ltr" data-test-id={pair.testId}>
              {(["LEFT", "RIGHT"] as const).map((side) => {
                const p = side === "LEFT" ? pair.left : pair.right;
                const label = side === "LEFT" ? T().leftPicture : T().rightPicture;
                const src = apiPath(
                  "GET /api/games/hotornot/pair/:testId/:side",
                  { testId: pair.testId, side: side === "LEFT" ? "left" : "right" },
                  { v: pair.deal },
                );
                return (
                  <button
                    key={`${pair.deal}-${side}`}
                    type="button"
                    className="hot-choice"
                    data-side={side}
                    aria-label={`${T().choose}: ${label}`}
                    disabled={busy}
                    onClick={() => vote(side)}
                  >
                    <img src={src} alt={label} draggable={false} data-nsfw={p.nsfw || undefined} />
                  </button>
                );
              })}
            </div>
            <div className="game-buttons">
              <button type="button" disabled={busy} onClick={() => vote("SKIP")}>{T().skip}</button>
            </div>
          </>
        )
        : loaded && <p className="game-empty">{T().voteEmpty}</p>}
      <p className="hot-note" role="status">{note}</p>
      {error && <p className="error" role="alert">{error}</p>}
    </section>
  );
}

/** One test's pictures: votes so far and, with votes, the share with its interval. Only its owner sees this. */
function TestResult(
  { test, onBestFirst, busy }: { test: HotTestView; onBestFirst?: () => void; busy: boolean },
) {
  const nsfw = useShowsNsfw();
  const sorted = test.status === "RUNNING"
    ? test.pictures
    : [...test.pictures].sort((a, b) => (b.share ?? -1) - (a.share ?? -1));
  return (
    <div className="hot-result" data-test-id={test.id} data-status={test.status}>
      {test.status !== "RUNNING" && test.tsDone !== null && (
        <p className="muted">{test.status === "DONE" ? T().ended(test.tsDone) : T().stopped(test.tsDone)}</p>
      )}
      <ul className="hot-pics">
        {sorted.map((p, i) => (
          <li key={p.picId} className={p.picId === test.best ? "is-best" : undefined} data-pic-id={p.picId}>
            <span className="hot-thumb">
              <Pic picId={p.picId} label={T().pick(i + 1)} nsfw={nsfw && p.nsfw} />
            </span>
            <span className="hot-figures">
              {p.picId === test.best && <strong className="hot-best">{T().bestLabel}</strong>}
              <span>{T().votes(p.votes)}</span>
              {p.share === null ? <span className="muted">{T().noVotes}</span> : (
                <>
                  <span className="hot-share">{T().share(pct(p.share), pct(p.low), pct(p.high))}</span>
                  <span className="hot-bar" aria-hidden="true">
                    <span
                      className="hot-interval"
                      style={{ insetInlineStart: `${pct(p.low)}%`, width: `${pct(p.high) - pct(p.low)}%` }}
                    />
                    <span className="hot-point" style={{ insetInlineStart: `${pct(p.share)}%` }} />
                  </span>
                </>
              )}
            </span>
          </li>
        ))}
      </ul>
      {test.careless > 0 && <p className="muted">{T().careless(test.careless)}</p>}
      {onBestFirst && test.best && (
        <div className="game-buttons">
          <button type="button" className="primary" disabled={busy} onClick={onBestFirst}>{T().bestFirst}</button>
        </div>
      )}
    </div>
  );
}

export default function HotOrNot(props: HotOrNotProps) {
  const [state, setState] = useState(props.state);
  const [credits, setCredits] = useState(props.state.credits);
  const [picked, setPicked] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState("");
  const [error, setError] = useState("");
  const nsfw = useShowsNsfw();

  const refresh = async () => setState(await api<State>(apiPath("GET /api/games/hotornot", {})));
  const run = async (work: () => Promise<string | void>) => {
    setBusy(true);
    setError("");
    setNote("");
    try {
      const done = await work();
      await refresh();
      if (done) setNote(done);
    } catch (e) {
      setError(failure(e));
    } finally {
      setBusy(false);
    }
  };

  const toggle = (picId: string) =>
    setPicked((p) => p.includes(picId) ? p.filter((x) => x !== picId) : p.length < HOT_MAX_PICS ? [...p, picId] : p);
  const start = () =>
    run(async () => {
      await api(apiPath("POST /api/games/hotornot/tests", {}), { method: "POST", json: { picIds: picked } });
      setPicked([]);
      return T().started;
    });
  const stop = (id: string) =>
    run(async () =>
      void await api(apiPath("DELETE /api/games/hotornot/tests/:testId", { testId: id }), { method: "DELETE" })
    );
  const bestFirst = (id: string) =>
    run(async () => {
      await api(apiPath("POST /api/games/hotornot/tests/:testId/best-first", { testId: id }), { method: "POST" });
      return T().bestFirstDone;
    });
  const keep = (on: boolean) =>
    run(async () => void await api(apiPath("PUT /api/games/hotornot/keep-best", {}), { method: "PUT", json: { on } }));
  const undo = () =>
    run(async () => {
      await api(apiPath("POST /api/games/hotornot/keep-best/undo", {}), { method: "POST" });
      return T().undone;
    });

  const current = state.current;
  const nsfwOf = new Map(state.pictures.map((p) => [p.picId, p.nsfw]));
  return (
    <div className="game hot-or-not">
      <p className="game-credits" aria-live="polite">{GAME_TEXTS.credits(credits)}</p>
      <Voting onCredits={setCredits} />

      <section className="hot-test" aria-labelledby="hot-test-title">
        <h2 id="hot-test-title">{T().testTitle}</h2>
        {current
          ? (
            <>
              <p>{T().running(current.tsEnds)}</p>
              <h3>{T().resultTitle}</h3>
              <p className="muted">{T().resultPrivate}</p>
              <TestResult test={current} busy={busy} />
              <div className="game-buttons">
                <button type="button" disabled={busy} onClick={() => stop(current.id)}>{T().stop}</button>
              </div>
            </>
          )
          : state.pictures.length < HOT_MIN_PICS
          ? (
            <p>
              {T().needPictures} <a href="/profilePicUpload">{T().addPictures}</a>
            </p>
          )
          : (
            <>
              <p className="muted">{T().testHelp}</p>
              <ul className="hot-picker">
                {state.pictures.map((p, i) => {
                  const on = picked.includes(p.picId);
                  return (
                    <li key={p.picId}>
                      <button
                        type="button"
                        className={on ? "hot-pick is-picked" : "hot-pick"}
                        aria-pressed={on}
                        data-pic-id={p.picId}
                        disabled={busy}
                        onClick={() => toggle(p.picId)}
                      >
                        <Pic picId={p.picId} label={T().pick(i + 1)} nsfw={nsfw && p.nsfw} />
                        {on && <span className="hot-pick-n" aria-hidden="true">{picked.indexOf(p.picId) + 1}</span>}
                      </button>
                    </li>
                  );
                })}
              </ul>
              <div className="game-buttons">
                <span className="muted">{T().picked(picked.length)}</span>
                <button
                  type="button"
                  className="primary"
                  disabled={busy || picked.length < HOT_MIN_PICS}
                  onClick={start}
                >
                  {T().start}
                </button>
              </div>
            </>
          )}
        {state.earlier.length > 0 && (
          <>
            <h3>{T().earlier}</h3>
            {!current && <p className="muted">{T().resultPrivate}</p>}
            {state.earlier.map((t) => (
              <TestResult
                key={t.id}
                test={t}
                busy={busy}
                onBestFirst={() => bestFirst(t.id)}
              />
            ))}
          </>
        )}
      </section>

      <section className="hot-keep" aria-labelledby="hot-keep-title">
        <h2 id="hot-keep-title">{T().keepTitle}</h2>
        <p className="muted">{T().keepHelp}</p>
        <button
          type="button"
          className={state.keepBest.on ? "toggle on" : "toggle"}
          aria-pressed={state.keepBest.on}
          aria-describedby="hot-keep-title"
          disabled={busy}
          onClick={() => keep(!state.keepBest.on)}
        >
          {state.keepBest.on ? T().keepOn : T().keepOff}
        </button>
        {state.keepBest.moves.length > 0 && (
          <ul className="hot-moves">
            {state.keepBest.moves.map((m) => (
              <li key={`${m.picId}-${m.ts}`}>
                <span className="hot-thumb small">
                  <Pic picId={m.picId} label={T().moved(m.ts)} nsfw={nsfw && (nsfwOf.get(m.picId) ?? false)} />
                </span>
                <span>{T().moved(m.ts)}</span>
              </li>
            ))}
          </ul>
        )}
        {state.keepBest.canUndo && (
          <div className="game-buttons">
            <button type="button" disabled={busy} onClick={undo}>{T().undo}</button>
          </div>
        )}
      </section>

      <p className="hot-note" role="status">{note}</p>
      {error && <p className="error" role="alert">{error}</p>}
      <BackToGames />
    </div>
  );
}
