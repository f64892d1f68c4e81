// Colours in one place, and none at all when NO_COLOR is set (https://no-color.org): components
// take their colours from here and never name one themselves.
import { createContext, useContext } from "react";

export interface Theme {
  readonly color: boolean;
  readonly accent: string | undefined;
  readonly good: string | undefined;
  readonly bad: string | undefined;
  readonly warn: string | undefined;
  readonly muted: string | undefined;
  readonly border: string | undefined;
  readonly focus: string | undefined;
}

export const colorTheme: Theme = {
  color: true,
  accent: "cyan",
  good: "green",
  bad: "red",
  warn: "yellow",
  muted: "gray",
  border: "gray",
  focus: "cyan",
};

export const plainTheme: Theme = {
  color: false,
  accent: undefined,
  good: undefined,
  bad: undefined,
  warn: undefined,
  muted: undefined,
  border: undefined,
  focus: undefined,
};

/** NO_COLOR present and not empty turns colour off. */
export function themeFor(env: Readonly<Record<string, string | undefined>>): Theme {
  const noColor = env.NO_COLOR;
  return noColor !== undefined && noColor !== "" ? plainTheme : colorTheme;
}

export const ThemeContext = createContext<Theme>(colorTheme);

export function useTheme(): Theme {
  return useContext(ThemeContext);
}
