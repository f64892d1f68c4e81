// A program playing a hosted game's slot over the player protocol, as a person's page would:
// `first` on turn 0, then stay. Records the turns it was asked and how its socket closed.
export function playSlot(url: string, first: string): { turns: number[]; closed: Promise<number> } {
  const turns: number[] = [];
  const socket = new WebSocket(url);
  socket.addEventListener("message", (event: MessageEvent) => {
    const message = JSON.parse(String(event.data)) as { type: string; turn?: number };
    if (message.type !== "turn" || message.turn === undefined) return;
    turns.push(message.turn);
    const move = message.turn === 0 ? first : "stay";
    socket.send(JSON.stringify({ type: "move", turn: message.turn, move }));
  });
  const closed = new Promise<number>((resolve) =>
    socket.addEventListener("close", (event) => resolve(event.code)),
  );
  return { turns, closed };
}
