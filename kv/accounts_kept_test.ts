/**
 * An instance that keeps reads (kv/kept.ts) keeps a member's session and account a minute: what
 * makes that safe is that every write of them forgets the kept copy. Each write below must show at
 * the next read of the same instance; a write that forgets nothing would not (the first test).
 */

import assert from "node:assert/strict";
import { testApp } from "../tests/api.ts";
import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { startKeptReads } from "./kept.ts";
import { eventBus } from "./events.ts";
import {
  type Account,
  adoptProfileName,
  defaultAccountName,
  dismissNotice,
  getAccountByEmail,
  setLanguage,
  setOnboarding,
  setQuietHours,
  setRoles,
  updateSettings,
} from "./accounts.ts";
import { accountWithGrants, grantRoleOps } from "./roles.ts";
import { createSession, endOtherSessions, endSession, endSessionById, getSession } from "./sessions.ts";
import { now } from "./clock.ts";

async function keeping() {
  const t = await testApp();
  // As the server runs: reads kept by the instance, forgotten through its tail of the change log.
  startKeptReads();
  await eventBus().log.tail();
  const m = await t.member();
  const account = (await getAccountByEmail(m.email))!;
  return {
    t,
    id: account.id,
    profileId: m.profileId,
    async close() {
      await eventBus().stop();
      t.close();
    },
  };
}

Deno.test("kept accounts - the copy is kept: a write that forgets nothing is not seen by the next read", async () => {
  const k = await keeping();
  try {
    const before = (await accountWithGrants(k.id))!;
    const entry = await kv().get<Account>(keys.account(k.id));
    await kv().set(entry.key, { ...entry.value!, name: "Written behind its back" });
    assert.equal((await accountWithGrants(k.id))!.name, before.name);
  } finally {
    await k.close();
  }
});

Deno.test("kept accounts - every write of an account or a grant shows at the next read", async () => {
  const k = await keeping();
  try {
    const read = async () => (await accountWithGrants(k.id))!;
    /** Reads (so a copy is kept), writes, and checks the next read. */
    const shows = async (what: string, write: () => Promise<unknown>, seen: (a: Account) => boolean) => {
      await read();
      await write();
      assert.ok(seen(await read()), `${what}: not seen by the next read`);
    };
    await shows("language", () => setLanguage(k.id, "fr"), (a) => a.language === "fr");
    await shows(
      "quiet hours",
      () => setQuietHours(k.id, { from: "22:00", to: "07:00", timeZone: "Europe/Paris" }),
      (a) => a.quietHours?.from === "22:00",
    );
    await shows("a dismissed notice", () => dismissNotice(k.id, "banner"), (a) => !!a.dismissed?.includes("banner"));
    await shows("an onboarding step", () => setOnboarding(k.id, "picture"), (a) => a.onboarding === "picture");
    await shows("onboarding ended", () => setOnboarding(k.id, null), (a) => a.onboarding === undefined);
    await shows("roles", () => setRoles(k.id, ["USER", "ADMIN"]), (a) => a.roles.includes("ADMIN"));
    const email = (await read()).email;
    await shows(
      "the name in settings",
      () => updateSettings(k.id, { name: "Rowan", email }),
      (a) => a.name === "Rowan",
    );
    await shows("the name back to the default", async () => {
      const entry = await kv().get<Account>(keys.account(k.id));
      await updateSettings(k.id, { name: defaultAccountName(entry.value!.email), email });
    }, (a) => a.name === defaultAccountName(email));
    await shows(
      "the profile's name adopted",
      () => adoptProfileName(k.id, k.profileId, "Sam"),
      (a) => a.name === "Sam",
    );
    await shows("a grant", async () => {
      const op = kv().atomic();
      grantRoleOps(op, k.id, "VOLUNTEER", now() + 60_000);
      assert.ok((await op.commit()).ok);
    }, (a) => a.roles.includes("VOLUNTEER"));
  } finally {
    await k.close();
  }
});

Deno.test("kept accounts - a session ended in any way is refused at the next read", async () => {
  const k = await keeping();
  try {
    const open = async () => {
      const { token } = await createSession(k.id, false, "test");
      assert.ok(await getSession(token), "a new session is read");
      return token;
    };
    const a = await open();
    await endSession(a);
    assert.equal(await getSession(a), null, "logout");
    const b = await open();
    const session = (await getSession(b))!;
    assert.ok(await endSessionById(k.id, session.id));
    assert.equal(await getSession(b), null, "ended from the sessions list");
    const c = await open();
    const keep = await open();
    assert.ok(await endOtherSessions(k.id, (await getSession(keep))!.id) >= 1);
    assert.equal(await getSession(c), null, "ended as another session");
    assert.ok(await getSession(keep), "the session kept");
  } finally {
    await k.close();
  }
});
