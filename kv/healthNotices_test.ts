import assert from "node:assert/strict";
import { kvTest } from "../tests/kv.ts";
import { wrapKv } from "./db.ts";
import { createAccount } from "./accounts.ts";
import { sendPrivateMessage } from "./messages.ts";
import { countedKv, tripsOf } from "./roundTrips.ts";
import { healthContacts } from "./healthNotices.ts";

/** A new member's profile id. */
const newMember = async () =>
  (await createAccount({ email: `h${crypto.randomUUID().slice(0, 8)}@example.com` }))!.defaultProfileId;

kvTest(
  "health notices - the contacts' reads go side by side: the round trips hardly grow with the contacts",
  async () => {
    const me = await newMember();
    const others: string[] = [];
    const contactsWith = async (n: number) => {
      while (others.length < n) {
        const o = await newMember();
        await sendPrivateMessage(me, o, "hi there", []);
        await sendPrivateMessage(o, me, "hello you", []);
        others.push(o);
      }
      // One who only received a message is not a contact.
      return await tripsOf(() => healthContacts(me, 14));
    };
    const silent = await newMember();
    await sendPrivateMessage(me, silent, "anyone?", []);
    // Each call waits 3 ms, as a store away would: calls made side by side overlap.
    wrapKv((db) => countedKv(db, 3));

    const one = await contactsWith(1);
    assert.deepEqual(one.result.map((c) => c.profileId), others);
    const six = await contactsWith(6);
    assert.deepEqual(six.result.map((c) => c.profileId).sort(), [...others].sort());
    // Read one after another, five more contacts cost three round trips each (15 more); side by
    // side none, but a busy machine may stagger their calls into a chain a little longer.
    assert.ok(
      six.trips.sequential <= one.trips.sequential + 3,
      `six contacts: ${six.trips.path.join(", ")}; one: ${one.trips.path.join(", ")}`,
    );
  },
);
