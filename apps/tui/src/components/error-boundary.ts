// A screen that fails to draw shows one line about it instead of a stack trace; the rest of the
// app (header, status line, keys) keeps working, and Esc goes back.
import { Box, Text } from "ink";
import { Component, createElement as h, type ErrorInfo, type ReactNode } from "react";

export interface ErrorBoundaryProps {
  onError: (error: unknown) => void;
  children?: ReactNode;
}

export class ErrorBoundary extends Component<ErrorBoundaryProps, { message: string | null }> {
  override state = { message: null as string | null };

  static getDerivedStateFromError(error: unknown): { message: string } {
    return { message: error instanceof Error ? error.message : String(error) };
  }

  override componentDidCatch(error: unknown, _info: ErrorInfo): void {
    this.props.onError(error);
  }

  override render(): ReactNode {
    if (this.state.message === null) return this.props.children;
    return h(
      Box,
      { flexGrow: 1, paddingX: 1 },
      h(
        Text,
        { wrap: "wrap" },
        `This screen could not be drawn: ${this.state.message}. Esc goes back, q quits.`,
      ),
    );
  }
}
