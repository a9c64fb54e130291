/** The "online now" dot beside a member's name on tiles, cards and the chat header (kv/presence.ts). */

import { TEXTS } from "../domain/texts.ts";

export function OnlineDot({ online }: { online: boolean | undefined }) {
  return online ? <span className="online-dot" role="img" aria-label={TEXTS.onlineNow} /> : null;
}
