import assert from "node:assert/strict";
import { kvTest } from "../tests/kv.ts";
import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { shiftClock } from "./clock.ts";
import { addressScope, forgetLoginTrust, loginTrust, MAX_PLACES, rememberLogin } from "./logintrust.ts";

Deno.test("logintrust - addresses count by IPv4 address or IPv6 /64, in any spelling", () => {
  assert.equal(addressScope("203.0.113.9"), "203.0.113.9");
  assert.equal(addressScope("::ffff:203.0.113.9"), "203.0.113.9");
  assert.equal(addressScope("2001:db8:7:9::1"), "2001:db8:7:9::/64");
  assert.equal(addressScope("2001:0DB8:0007:0009:abcd:1:2:3"), "2001:db8:7:9::/64");
  assert.equal(addressScope("[2001:db8::1]"), "2001:db8:0:0::/64");
  assert.equal(addressScope("fe80::1%eth0"), "fe80:0:0:0::/64");
  assert.equal(addressScope("::1"), "0:0:0:0::/64");
  assert.equal(addressScope("local"), "local");
  assert.equal(addressScope("not:an:address::x"), "not:an:address::x", "anything else counts as itself");
});

kvTest(
  "logintrust - a login remembers its address and device for that account only; hashes, not addresses, are stored",
  async () => {
    assert.equal(await loginTrust("a1", "198.51.100.7"), null);
    assert.equal((await kv().get(keys.loginTrustSecret())).value, null, "a look-up stores nothing");
    const device = await rememberLogin("a1", "198.51.100.7");
    assert.match(device, /^[A-Za-z0-9_-]{43}$/);
    assert.equal((await loginTrust("a1", "198.51.100.7"))?.kind, "address");
    assert.equal((await loginTrust("a1", "192.0.2.1", device))?.kind, "device");
    assert.equal(await loginTrust("a2", "198.51.100.7", device), null, "another account does not trust them");
    assert.equal(await rememberLogin("a2", "192.0.2.1", device), device, "one browser is one device");
    for await (const e of kv().list({ prefix: ["login_known_addresses"] })) {
      assert.ok(!JSON.stringify(e.key).includes("198.51"), "no address in the store");
    }
    await forgetLoginTrust("a1");
    assert.equal(await loginTrust("a1", "198.51.100.7", device), null, "forgotten");
    assert.equal((await loginTrust("a2", "192.0.2.1", device))?.kind, "device");
  },
);

kvTest("logintrust - an account keeps its newest known places only", async () => {
  for (let i = 0; i <= MAX_PLACES + 4; i++) {
    await rememberLogin("a1", `10.0.0.${i}`);
    shiftClock(1000);
  }
  let addresses = 0, devices = 0;
  for await (const _ of kv().list({ prefix: keys.loginKnownAddresses("a1") })) addresses++;
  for await (const _ of kv().list({ prefix: keys.loginDevices("a1") })) devices++;
  assert.equal(addresses, MAX_PLACES);
  assert.equal(devices, MAX_PLACES);
  assert.equal(await loginTrust("a1", "10.0.0.0"), null, "the oldest was dropped");
  assert.equal((await loginTrust("a1", `10.0.0.${MAX_PLACES + 4}`))?.kind, "address");
});
