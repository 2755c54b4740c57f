import { Component, type ReactNode } from "react";

/** Shows `fallback` instead of a subtree that threw (a chunk that failed to load, a table that crashed). */
export class ErrorBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.error("A part of the page failed", error);
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
