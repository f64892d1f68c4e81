export { resolveConfig, type ServerConfig } from "./config.ts";
export { startServer, type RunningServer, type StartOptions } from "./server.ts";
export { openStore, type Store } from "./store/database.ts";
