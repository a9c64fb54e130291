/**
 * An event stream's text as a test reads it: `until` reads until a text is in it (or a deadline
 * passes, or the stream ends), `ends` until the server ends it. A read still waiting when one
 * deadline passes is kept for the next call: dropping it would drop the text it brings.
 */

import { after } from "./wait.ts";

/** An event stream's reader: its status, the text so far, a wait for a text in it, and `close`. */
export interface StreamText {
  readonly status: number;
  readonly text: string;
  /** Reads until `want` is in the text, the stream ends or `withinMs` pass; true if it is. */
  until(want: string | RegExp, withinMs?: number): Promise<boolean>;
  /** Reads until the stream ends or `withinMs` pass; when it ended (`performance.now()`), or null. */
  ends(withinMs?: number): Promise<number | null>;
  close(): Promise<void>;
}

/** Reads an event stream's answer as text; an answer other than 200 is read as an empty text that never grows. */
export async function streamText(res: Response): Promise<StreamText> {
  if (res.status !== 200 || !res.body) {
    await res.body?.cancel();
    return {
      status: res.status,
      text: "",
      until: () => Promise.resolve(false),
      ends: () => Promise.resolve(null),
      close: () => Promise.resolve(),
    };
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let reading: Promise<ReadableStreamReadResult<string>> | undefined;
  let text = "";
  let endedAt: number | null = null;
  /** Reads until `stop` holds, the stream ends or `withinMs` pass. */
  const readUntil = async (stop: () => boolean, withinMs: number) => {
    const deadline = Date.now() + withinMs;
    while (!stop() && endedAt === null) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      reading ??= reader.read();
      const r = await Promise.race([reading, after(Math.min(left, 100), null)]);
      if (r === null) continue;
      reading = undefined;
      if (r.done) endedAt = performance.now();
      else text += r.value;
    }
  };
  return {
    status: res.status,
    get text() {
      return text;
    },
    async until(want, withinMs = 3000) {
      const has = () => typeof want === "string" ? text.includes(want) : want.test(text);
      await readUntil(has, withinMs);
      return has();
    },
    async ends(withinMs = 3000) {
      await readUntil(() => false, withinMs);
      return endedAt;
    },
    close: () => reader.cancel().catch(() => {}),
  };
}
