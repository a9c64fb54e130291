/**
 * Map Chat (spec §2): broadcasts from the sectors around my position, newest first, with date
 * markers; the composer on top has no recipient; after sending, my location is read again.
 */

import { useState } from "react";
import { QueryProvider } from "./queries/client.tsx";
import { useBroadcastsQuery, useSendMessageMutation } from "./queries/messages.ts";
import { type KnownLocation, locationReporter, useLocation } from "./queries/location.ts";
import { Composer, type ComposerPic } from "../components/Composer.tsx";
import { MessageBubble } from "../components/MessageBubble.tsx";
import { TEXTS } from "../domain/texts.ts";
import { profileUrl, shortName } from "../domain/format.ts";
import { UI_TEXTS } from "../domain/uiTexts.ts";
import { dateTimeFormat, intlLocale } from "../domain/i18n.ts";

export interface MapChatProps {
  me: string;
  known: KnownLocation | null;
  myPics: ComposerPic[];
}

/** The 1-degree sector of a point, as the server names it ("lat:lon" of the floors). */
function sectorOf(lat: number, lon: number): string {
  return `${Math.min(89, Math.floor(lat))}:${Math.floor(((lon + 540) % 360) - 180)}`;
}

function dayOf(ts: number): string {
  return dateTimeFormat(intlLocale(), { weekday: "long", month: "short", day: "numeric" }).format(ts);
}

function Board({ me, known, myPics }: MapChatProps) {
  const location = useLocation(me, known);
  const [page, setPage] = useState(0);
  const sector = location.ready ? sectorOf(location.lat, location.lon) : null;
  const { items, people, hasMore, loading } = useBroadcastsQuery(sector, page);
  const send = useSendMessageMutation();
  let lastDay = "";

  return (
    <div className="mapchat-board stack">
      <Composer
        placeholder={UI_TEXTS.sayToEveryone}
        pics={myPics}
        // The server posts to the sector of my reported position: wait until it has one.
        busy={send.isPending || location.reported === 0}
        onSend={async (bodyText, profilePicIds) => {
          await send.mutateAsync({ senderProfileId: me, bodyText, profilePicIds });
          // Spec: after sending, the page reloads its own location.
          locationReporter().refresh();
        }}
      />
      {location.gpsNotice && <p className="warning">{location.gpsNotice}</p>}
      {(loading || !sector) && <p className="loading" role="status">{UI_TEXTS.loading}</p>}
      {sector && !loading && items.length === 0 && <p className="empty">{TEXTS.mapChatEmpty}</p>}
      <div className="messages broadcast" role="log">
        {items.map((m) => {
          const day = dayOf(m.tsCreated);
          const marker = day !== lastDay;
          lastDay = day;
          const who = people[m.senderProfileId]?.profileName ?? "Member";
          return (
            <div key={m.id}>
              {marker && <p className="date-marker">{day}</p>}
              <a className="bubble-author-link" href={profileUrl(m.senderProfileId)}>{shortName(who)}</a>
              <MessageBubble m={m} mine={m.senderProfileId === me} />
            </div>
          );
        })}
      </div>
      {items.length > 0 && (hasMore
        ? <button type="button" onClick={() => setPage(page + 1)}>{UI_TEXTS.loadMore}</button>
        : <p className="end">{TEXTS.thatsAll}</p>)}
    </div>
  );
}

export default function MapChat(props: MapChatProps) {
  return (
    <QueryProvider>
      <Board {...props} />
    </QueryProvider>
  );
}
