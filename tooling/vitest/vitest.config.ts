import { preset } from "./preset.ts";

export default preset(import.meta.dirname, { include: ["*.test.ts"] });
