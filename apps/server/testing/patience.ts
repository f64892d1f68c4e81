// How long a test waits for something before reporting it as a hang. Far beyond what a busy
// 2-core machine needs: a wait ends when its condition holds, and this bound only turns a hang
// into a message that says what never came (tests assert no elapsed time).
export const PATIENCE_MS = 120_000;
