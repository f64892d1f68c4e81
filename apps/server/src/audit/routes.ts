import { actsAsAdmin } from "../access/admin.ts";
import { defineHandlers } from "../http/handler.ts";
import { forbidden } from "../shared/errors.ts";
import { listElevatedActions } from "./audit-trail.ts";

export const auditHandlers = defineHandlers({
  listAdminAudit: async ({ identity, query, app }) => {
    if (!actsAsAdmin(identity))
      throw forbidden(
        "Only admins read the audit trail, and only with X-Use-Elevated-Privileges: true (the CLI's --elevated).",
      );
    return listElevatedActions(app.store.db, query);
  },
});
