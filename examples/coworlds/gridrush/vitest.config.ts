import { preset } from "@gauntlet/vitest-config";

export default preset(import.meta.dirname, {
  include: ["*.test.ts", "game/**/*.test.ts", "players/**/*.test.ts", "commissioner/**/*.test.ts"],
});
