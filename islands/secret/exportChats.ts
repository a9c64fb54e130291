/**
 * "Download my secret chats": the member's own decrypted copies, from this device only. The server
 * cannot put them in the data export (it holds ciphertext it cannot open); this device can, so it
 * writes them into a file in the browser and nothing is sent anywhere. Each chat's history as this
 * device keeps it (texts, and pictures it kept, as data URLs), with the other member's id from the
 * server's list. Loaded on demand from "Your data" (islands/MyData.tsx).
 */

import { api } from "../queries/api.ts";
import { apiPath } from "../../domain/apiPath.ts";
import type { ApiAnswer } from "../../domain/contract.ts";
import type { SecretChat } from "../../domain/shapes/secretChats.ts";
import { SECRET_TEXTS } from "../../domain/secretChats.ts";
import { toBase64 } from "../../domain/franking.ts";
import type { Entry } from "./client.ts";
import { getLocal, localKeys } from "./store.ts";

/** One message of the file. */
interface ExportedMessage {
  id: string;
  at: string;
  from: "me" | "them";
  text?: string;
  picture?: string;
  unsent?: true;
  viewedOnce?: true;
  unreadable?: true;
}

/** What the file holds. */
export interface SecretChatsExport {
  note: string;
  exportedAt: string;
  chats: { chatId: string; with: string | null; messages: ExportedMessage[] }[];
}

/** This device's secret chats, decrypted, as the file holds them (`me`: whose chats to label). */
export async function collectSecretChats(me: string): Promise<SecretChatsExport> {
  const listed = await api<ApiAnswer<"GET /api/secret/chats">>(apiPath("GET /api/secret/chats", {}))
    .then((r) => r.items as SecretChat[], () => [] as SecretChat[]);
  const chats: SecretChatsExport["chats"] = [];
  for (const key of await localKeys("chat:")) {
    const chatId = key.slice("chat:".length);
    const kept = await getLocal<{ history: Entry[]; outbox?: Entry[] }>(key);
    if (!kept) continue;
    const other = listed.find((c) => c.id === chatId)?.members.find((m) => m !== me) ?? null;
    const messages: ExportedMessage[] = [];
    for (const e of [...kept.history, ...(kept.outbox ?? [])]) {
      const m: ExportedMessage = { id: e.id, at: new Date(e.ts).toISOString(), from: e.mine ? "me" : "them" };
      if (e.text) m.text = e.text;
      if (e.unsent) m.unsent = true;
      if (e.viewed) m.viewedOnce = true;
      if (e.unreadable) m.unreadable = true;
      if (e.picture && !e.picture.once) {
        const bytes = await getLocal<Uint8Array>(`pic:${chatId}:${e.picture.id}`);
        if (bytes) m.picture = `data:${e.picture.type};base64,${toBase64(bytes)}`;
      }
      messages.push(m);
    }
    chats.push({ chatId, with: other, messages });
  }
  return { note: SECRET_TEXTS.exportNote, exportedAt: new Date().toISOString(), chats };
}

/**
 * Builds the file and has the browser save it; the number of chats in it. Throws the clear message
 * when this device holds none.
 */
export async function downloadSecretChats(me: string): Promise<number> {
  const data = await collectSecretChats(me);
  if (!data.chats.length) throw new Error(SECRET_TEXTS.exportNone);
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = `lambda-secret-chats-${data.exportedAt.slice(0, 10)}.json`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return data.chats.length;
}
