// The sandbox's first process: a shell script that closes inherited descriptors, starts the
// socat bridges of the sandbox's ways out, waits for them, and becomes the runnable.

/** One way out of a sandbox: where it accepts inside, and where each connection goes. */
export interface Forward {
  listen: { port: number } | { path: string };
  to: { port: number } | { path: string };
}

/**
 * The sandbox's first process: a shell that starts a socat per forward (trusted, but with the
 * runnable's rights: a runnable that kills one only cuts its own connections), waits until each
 * TCP one listens, then becomes the runnable (`exec`), so its exit and signals are the runnable's.
 * The wait counts the namespace's listening TCP sockets in /proc/net/sockstat — nothing but the
 * socats makes one before the runnable starts — with shell builtins, and sleeps 5 ms after a
 * look that fails: no busy loop and no process but that `sleep`, so the CPU goes to socat and the
 * runnable. (Not /proc/net/tcp: a read of it walks the host's whole TCP hash, ~4 ms of CPU.)
 */
export function initScript(forwards: Forward[], holdFd: number | null = null): string {
  // Every descriptor above 2 but the hold pipe is closed first: the runner's pipes to bubblewrap,
  // and any the runner itself inherited without close-on-exec (Node's spawn and bubblewrap close
  // none), which would reach socat and the runnable. bash, not dash: dash cannot close a
  // descriptor of two digits. /proc/self is bash itself while it expands the glob.
  const keep = holdFd === null ? "" : ` && [ "$fd" != ${holdFd} ]`;
  const lines = [
    "set -e",
    `for fd in /proc/self/fd/*; do fd=\${fd##*/}; if [ "$fd" -gt 2 ]${keep}; then exec {fd}<&-; fi; done`,
  ];
  let ports = 0;
  for (const forward of forwards) {
    const listen =
      "port" in forward.listen
        ? `TCP-LISTEN:${forward.listen.port},bind=127.0.0.1,fork,reuseaddr`
        : `UNIX-LISTEN:${forward.listen.path},fork`;
    const to =
      "port" in forward.to ? `TCP:127.0.0.1:${forward.to.port}` : `UNIX-CONNECT:${forward.to.path}`;
    // The hold pipe is the shell's alone.
    const closeHold = holdFd === null ? "" : ` ${holdFd}<&-`;
    lines.push(`socat ${listen} ${to} 2>/dev/null${closeHold} &`);
    if ("port" in forward.listen) ports += 1;
  }
  if (ports > 0)
    lines.push(
      'up() { while read -r k _ n _; do [ "$k" = TCP: ] && { [ "$n" -ge "$1" ]; return; }; done </proc/net/sockstat; return 1; }',
      `i=0; until up ${ports}; do i=$((i+1)); [ $i -lt 2000 ] || exit 126; sleep 0.005; done`,
    );
  // Held: the box is ready; the runnable starts on the runner's word ("go"), else never.
  if (holdFd !== null)
    lines.push(`read -r go <&${holdFd} || :`, `exec ${holdFd}<&-`, '[ "$go" = go ] || exit 0');
  lines.push('exec "$@"');
  return lines.join("\n");
}

/** The sandbox's first process: bash, which can close any descriptor (initScript). */
export const INIT_SHELL = "/bin/bash";
