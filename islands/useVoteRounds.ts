/**
 * The rounds of a voting game (GPT Buster, Community Arbitration): the current item, a vote
 * once (PUT `{verdict}`), the answer with the community's count, then the next item. A vote on
 * an item judged meanwhile (another tab) or gone says so and moves on.
 */

import { useState } from "react";
import { api, ApiFailure } from "./queries/api.ts";
import { GAME_TEXTS } from "../domain/games.ts";

export interface VoteRoundsOptions<Item> {
  item: Item | null;
  credits: number;
  /** GET: the next item to judge and the member's credits. */
  nextPath: string;
  /** Where a vote on this item is PUT. */
  votePath: (item: Item) => string;
}

/** The state of the rounds and the two actions; `R` is the vote's answer (with `credits`). */
export function useVoteRounds<Item, Verdict extends string, R extends { credits: number }>(
  o: VoteRoundsOptions<Item>,
) {
  const [item, setItem] = useState(o.item);
  const [credits, setCredits] = useState(o.credits);
  const [result, setResult] = useState<{ answer: R; mine: Verdict } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");

  const fetchNext = async () => {
    const r = await api<{ item: Item | null; credits: number }>(o.nextPath);
    setItem(r.item);
    setCredits(r.credits);
    setResult(null);
  };

  const run = async (work: () => Promise<void>, failed: string) => {
    setBusy(true);
    setError("");
    try {
      await work();
    } catch (e) {
      if (e instanceof ApiFailure && (e.status === 404 || e.status === 409)) await fetchNext().catch(() => {});
      setError(e instanceof ApiFailure && e.status < 500 ? e.message : failed);
    } finally {
      setBusy(false);
    }
  };

  const vote = (verdict: Verdict) => {
    if (!item || busy) return;
    return run(async () => {
      const answer = await api<R>(o.votePath(item), { method: "PUT", json: { verdict } });
      setCredits(answer.credits);
      setResult({ answer, mine: verdict });
    }, GAME_TEXTS.saveFailed);
  };

  const next = () => run(fetchNext, GAME_TEXTS.loadFailed);

  return { item, credits, result, busy, error, vote, next };
}
