// Admin tools (docs/api.md, "Elevated privileges"): read only with elevated admin powers.
import { z } from "zod";

import { AdminAuditEntry, AdminAuditQuery } from "../../models/identity.ts";
import { defineOperation } from "../operation.ts";

export const adminOperations = {
  listAdminAudit: defineOperation({
    id: "listAdminAudit",
    method: "GET",
    path: "/v2/admin/audit",
    tag: "Identity",
    summary: "The audit trail of elevated admin actions, newest first (admins, elevated)",
    description:
      "Every request that changes state (not GET or HEAD) made with `X-Use-Elevated-Privileges: true` by an admin: who, when, the operation, its path and the status answered. Request bodies are never recorded.",
    auth: "required",
    access: "admin",
    complexity: 10,
    query: AdminAuditQuery,
    status: 200,
    response: z.array(AdminAuditEntry),
  }),
} as const;
