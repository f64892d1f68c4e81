import { preset } from "@gauntlet/vitest-config";

export default preset(import.meta.dirname, {
  typecheck: { enabled: true, include: ["src/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
});
