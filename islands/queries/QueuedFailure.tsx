/**
 * A write the device outbox (./outbox.ts) kept and the server later refused: the reason, a retry
 * and a discard, so nothing written is dropped without the member's say.
 */

import { dropQueued, type Queued, retryQueued } from "./outbox.ts";
import { UI_TEXTS } from "../../domain/uiTexts.ts";

export function QueuedFailure(
  { queued, as: Tag = "p", className = "" }: { queued: Queued; as?: "p" | "span"; className?: string },
) {
  return (
    <Tag className={`error ${className}`.trim()} role="alert">
      {UI_TEXTS.writeFailed}: {queued.failed}{" "}
      <button type="button" className="link-button" onClick={() => void retryQueued(queued.key)}>
        {UI_TEXTS.sendAgain}
      </button>{" "}
      <button type="button" className="link-button" onClick={() => dropQueued(queued.key)}>
        {UI_TEXTS.discardMessage}
      </button>
    </Tag>
  );
}
