/**
 * You got Cooties: the health notices a member got, one per condition for overlapping windows:
 * what they may have been exposed to, when, and what to do. Never who or exactly when they met.
 * A notice can be reported as abuse (it goes, counted; nothing is traced back).
 */

import { useState } from "react";
import { api } from "./queries/api.ts";
import { apiPath } from "../domain/apiPath.ts";
import type { ApiAnswer } from "../domain/contract.ts";
import { GAME_TEXTS } from "../domain/games.ts";
import { BackToGames } from "../components/BackToGames.tsx";

type Notice = ApiAnswer<"GET /api/games/cooties">["items"][number];

export interface CootiesProps {
  items: Notice[];
}

export default function Cooties(props: CootiesProps) {
  const T = GAME_TEXTS.health;
  const [items, setItems] = useState(props.items);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const abuse = async (id: string) => {
    setError(null);
    try {
      await api(apiPath("POST /api/games/cooties/:id/abuse", { id }), { method: "POST" });
      setItems((xs) => xs.filter((n) => n.id !== id));
      setDone(true);
    } catch {
      setError(GAME_TEXTS.saveFailed);
    }
  };

  return (
    <div className="game cooties">
      {done && <p role="status">{T.abuseReported}</p>}
      {items.length === 0 ? <p className="game-empty">{T.noNotices}</p> : (
        items.map((n) => (
          <article key={n.id} className="game-card health-notice" data-condition={n.condition}>
            <h2>{T.noticeTitle(T.conditions[n.condition])}</h2>
            <p className="health-window">{T.noticeWindow(n.since, n.until)}</p>
            <h3>{T.whatToDo}</h3>
            <p className="health-advice">{T.advice[n.condition]}</p>
            <p className="muted">{T.generalAdvice}</p>
            <button type="button" className="link-button" onClick={() => void abuse(n.id)}>{T.reportAbuse}</button>
          </article>
        ))
      )}
      {error && <p className="error" role="alert">{error}</p>}
      <BackToGames />
    </div>
  );
}
