export * from "./server-url.ts";
export * from "./config-dir.ts";
export * from "./credentials.ts";
export * from "./resolve.ts";
