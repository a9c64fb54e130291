/** Logout (spec §2): ends the session on the server, clears local storage, offers 'Login Again'. */

import { phrase } from "../domain/phrases.ts";
import { useEffect, useState } from "react";
import { api, clearLocalData, endingSessionHere } from "./queries/api.ts";
import { TEXTS } from "../domain/texts.ts";
import { apiPath } from "../domain/apiPath.ts";

export default function Logout() {
  const [done, setDone] = useState(false);
  useEffect(() => {
    // This page ends the session and says so itself: the live feed's end is not a surprise here.
    endingSessionHere();
    api(apiPath("POST /api/auth/logout", {}), { method: "POST", isLogin: true }).catch(() => {}).finally(() => {
      clearLocalData();
      setDone(true);
      // The server already ended the session; the address moves to /login as the spec says.
      history.replaceState(null, "", "/login");
    });
  }, []);
  return (
    <div className="stack narrow center">
      <p role="status">{done ? phrase("You are logged out.") : phrase("Logging out...")}</p>
      <a className="button primary" href="/login">{TEXTS.loginAgain}</a>
    </div>
  );
}
