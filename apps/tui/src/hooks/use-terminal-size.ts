// The terminal's size, following resizes; never below what the layout can draw in.
import { useWindowSize } from "ink";

export const MIN_COLUMNS = 40;
export const MIN_ROWS = 12;

export function useTerminalSize(): { columns: number; rows: number } {
  const { columns, rows } = useWindowSize();
  return { columns: Math.max(MIN_COLUMNS, columns), rows: Math.max(MIN_ROWS, rows) };
}
