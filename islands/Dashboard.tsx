/** Admin dashboard (spec §2): members per role as cards and a bar chart, every 5 s; 'Create 20 Users'. */

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "./queries/api.ts";
import { QueryProvider, useServerData } from "./queries/client.tsx";
import { apiPath } from "../domain/apiPath.ts";
import { UI_TEXTS } from "../domain/uiTexts.ts";
import type { ApiAnswer } from "../domain/contract.ts";

export type RoleCount = ApiAnswer<"GET /api/admin/dashboard/userRoleCounts">[number];

/** Admin counts refresh every 5 seconds (spec §9). */
const REFRESH_MS = 5000;

function DashboardBody({ counts }: { counts: RoleCount[] }) {
  const qc = useQueryClient();
  // The server's counts seed the cache: counts restored from the device's cache would make hydration differ.
  useServerData(["userRoleCounts"], counts);
  const data = useQuery({
    queryKey: ["userRoleCounts"],
    queryFn: () => api<RoleCount[]>(apiPath("GET /api/admin/dashboard/userRoleCounts", {})),
    refetchInterval: REFRESH_MS,
  }).data ?? counts;
  const create = useMutation({
    mutationFn: () =>
      api<{ created: number }>(apiPath("POST /api/admin/testUsersCreate/:count", { count: "20" }), { method: "POST" }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ["userRoleCounts"] }),
  });
  const max = Math.max(1, ...data.map((d) => d.count));
  return (
    <div className="stack">
      <ul className="cards">
        {data.map((d) => (
          <li key={d.role} className="card stat">
            <span className="card-label">{d.role}</span>
            <span className="stat-value">{d.count}</span>
          </li>
        ))}
      </ul>
      <div className="bars" role="img" aria-label={UI_TEXTS.membersPerRole}>
        {data.map((d) => (
          <div key={d.role} className="bar-row">
            <span>{d.role}</span>
            <meter min={0} max={max} value={d.count} />
            <span>{d.count}</span>
          </div>
        ))}
      </div>
      <button type="button" className="primary" onClick={() => create.mutate()} disabled={create.isPending}>
        {UI_TEXTS.create20Users}
      </button>
      {create.data && <p role="status">Created {create.data.created} test users.</p>}
    </div>
  );
}

export default function Dashboard(props: { counts: RoleCount[] }) {
  return (
    <QueryProvider>
      <DashboardBody {...props} />
    </QueryProvider>
  );
}
