import { preset } from "@gauntlet/vitest-config";

export default preset(import.meta.dirname, { globalSetup: ["./testing/sandbox-setup.ts"] });
