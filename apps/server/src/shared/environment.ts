// The environment a setting is read from: process.env at start, a plain object in tests.
export type Env = Record<string, string | undefined>;
