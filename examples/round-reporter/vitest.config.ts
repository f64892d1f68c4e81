import { preset } from "@gauntlet/vitest-config";

export default preset(import.meta.dirname, { include: ["src/**/*.test.ts"] });
