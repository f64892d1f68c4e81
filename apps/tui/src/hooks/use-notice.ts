// The latest notice, for the status line.
import { useSyncExternalStore } from "react";

import type { Notice, Notices } from "../data/notices.ts";

export function useNotice(notices: Notices): Notice | null {
  return useSyncExternalStore(notices.subscribe, notices.getSnapshot);
}
