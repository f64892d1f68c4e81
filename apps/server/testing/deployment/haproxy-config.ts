// The reference deployment's load balancer: HAProxy (Debian's `haproxy`) terminating TLS and
// passing WebSockets, round-robin over the replicas with no stickiness, a replica taken out when
// `/readyz` answers 503 or not at all. One function writes the file: the end-to-end test runs it,
// and docs/deploy.md shows it with the example addresses (a test checks the two agree).

export interface HaproxySettings {
  /** Where clients connect: `address:port` of the TLS listener. */
  listen: string;
  /** A PEM file holding the certificate chain and then its private key. */
  certificate: string;
  /** The replicas, by name, as `address:port` of their plain-HTTP listeners. */
  replicas: readonly { name: string; address: string }[];
}

/** The address and files the guide shows. */
export const DOCUMENTED_HAPROXY: HaproxySettings = {
  listen: "0.0.0.0:443",
  certificate: "/etc/ssl/gauntlet/gauntlet.pem",
  replicas: [
    { name: "replica-a", address: "10.0.1.11:8787" },
    { name: "replica-b", address: "10.0.1.12:8787" },
  ],
};

export function haproxyConfig(settings: HaproxySettings): string {
  const servers = settings.replicas.map((r) => `    server ${r.name} ${r.address} check`);
  return [
    "global",
    "    maxconn 4096",
    "",
    "defaults",
    "    mode http",
    "    option forwardfor                  # X-Forwarded-For: the client's address",
    "    timeout connect 2s",
    "    timeout client 1h",
    "    timeout server 1h",
    "    timeout tunnel 1h                  # live events and game sockets stay open",
    "    timeout http-request 30s",
    "    retries 2",
    "    option redispatch 1                # a refused connection is retried on another replica",
    "",
    "frontend gauntlet",
    `    bind ${settings.listen} ssl crt ${settings.certificate} alpn http/1.1`,
    "    http-request set-header X-Forwarded-Proto https",
    "    http-request set-header X-Forwarded-Host %[req.hdr(host)]",
    "    default_backend replicas",
    "",
    "backend replicas",
    "    balance roundrobin                 # no stickiness: any replica serves any request",
    "    option httpchk GET /readyz",
    "    http-check expect status 200       # 200 ready or degraded; 503 only without the database",
    "    default-server inter 1s fall 2 rise 1",
    ...servers,
    "",
  ].join("\n");
}
