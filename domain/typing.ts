/**
 * "Typing..." rules, shared by the page that tells and the server that passes it on.
 *
 * While a member types, the page tells the other member every `TYPING_REPEAT_MS`; the other page
 * shows "Typing..." for `TYPING_SHOWS_MS` after the last telling, and drops it when a message
 * from them arrives. A message sent starts a new round: the first keystroke after it is told at
 * once (a member who answers quickly right after sending still shows as typing). The server
 * passes on at most one telling per pair every `TYPING_SERVER_GAP_MS`, which bounds what a page that
 * ignores these rules can cost; the page never tells closer than `TYPING_MIN_GAP_MS`, twice that, so
 * none of its tellings is dropped however the network spaces their arrivals.
 */

/** While typing goes on, it is told again this often. */
export const TYPING_REPEAT_MS = 3000;
/** How long "Typing..." shows after the last telling (six seconds of silence end it). */
export const TYPING_SHOWS_MS = 6000;
/** The least time the page leaves between two tellings to one member. */
export const TYPING_MIN_GAP_MS = 400;
/** The least time between two tellings of one pair that the server passes on (half the page's gap: arrivals jitter). */
export const TYPING_SERVER_GAP_MS = TYPING_MIN_GAP_MS / 2;

/**
 * The telling side's clock-driven state: `keystroke()` at each change of a non-empty draft,
 * `sent()` when a message leaves. `tell` is called at most once per `TYPING_MIN_GAP_MS`, at once
 * for the first keystroke of a round (once the message before it is stored), and then every
 * `TYPING_REPEAT_MS` while keystrokes go on.
 */
export class TypingTeller {
  #last = -Infinity;
  #newRound = true;
  /** A keystroke is waiting to be told (for the least gap, or for the message before it). */
  #waiting = false;
  #timer?: ReturnType<typeof setTimeout>;
  #sending?: Promise<unknown>;
  #disposed = false;

  constructor(private readonly tell: () => void, private readonly clock: () => number = Date.now) {}

  keystroke(): void {
    if (this.#waiting || this.#disposed) return;
    const sending = this.#sending;
    if (sending) {
      // Told once the message is stored, so the other side never hears of this typing before the
      // message it follows (whose arrival ends "Typing..." there).
      this.#waiting = true;
      void sending.catch(() => {}).finally(() => {
        this.#waiting = false;
        if (this.#sending === sending) this.#sending = undefined;
        this.keystroke();
      });
      return;
    }
    const t = this.clock();
    const since = t - this.#last;
    if (!this.#newRound && since < TYPING_REPEAT_MS) return;
    if (since >= TYPING_MIN_GAP_MS) return this.#fire(t);
    // A new round right after the last telling: told as soon as the server takes it.
    this.#waiting = true;
    this.#timer = setTimeout(() => {
      this.#waiting = false;
      if (!this.#disposed) this.#fire(this.clock());
    }, TYPING_MIN_GAP_MS - since);
  }

  /** A message left; `stored` settles when the server has it. */
  sent(stored?: Promise<unknown>): void {
    this.#newRound = true;
    this.#sending = stored;
  }

  /** Drops a telling still waiting (the conversation closed). */
  dispose(): void {
    this.#disposed = true;
    clearTimeout(this.#timer);
  }

  #fire(t: number) {
    this.#last = t;
    this.#newRound = false;
    this.tell();
  }
}
