/** `deno task grant <email> <ROLE> [--revoke]`: grants (or revokes) a role, e.g. ADMIN. */

import { openKv } from "../kv/db.ts";
import { getAccountByEmail, setRoles } from "../kv/accounts.ts";

if (import.meta.main) {
  const [email, role, flag] = Deno.args;
  if (!email || !role) {
    console.error("usage: deno task grant <email> <ROLE> [--revoke]");
    Deno.exit(2);
  }
  await openKv();
  const account = await getAccountByEmail(email);
  if (!account) {
    console.error(`no account for ${email}`);
    Deno.exit(1);
  }
  const roles = flag === "--revoke"
    ? account.roles.filter((r) => r !== role.toUpperCase())
    : [...account.roles, role.toUpperCase()];
  const saved = await setRoles(account.id, roles);
  console.log(`${saved.email}: ${saved.roles.join(", ")}`);
}
