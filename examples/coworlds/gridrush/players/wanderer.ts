// Baseline player "wanderer" (see strategies.ts).
import { play } from "./client.ts";
import { wanderer } from "./strategies.ts";

play("wanderer", wanderer);
