/**
 * The thread that gzips large answers (routes/offThreadGzip.ts): each message is `{ id, bytes }`,
 * each answer `{ id, out }` with the gzipped bytes (transferred), or `{ id, out: null }` when it failed.
 */

/** This worker's own scope, typed as far as it is used (the project's types are the window's). */
const scope = globalThis as unknown as {
  onmessage: (e: MessageEvent<{ id: number; bytes: Uint8Array<ArrayBuffer> }>) => void;
  postMessage(message: unknown, transfer?: Transferable[]): void;
};

scope.onmessage = async (e) => {
  const { id, bytes } = e.data;
  try {
    const gz = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
    const out = new Uint8Array(await new Response(gz).arrayBuffer());
    scope.postMessage({ id, out }, [out.buffer]);
  } catch {
    scope.postMessage({ id, out: null });
  }
};
