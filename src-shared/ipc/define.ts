import type { z } from 'zod';

/**
 * One row of the IPC contract: a request the renderer sends and main answers.
 * `input` is validated in main with zod; `result` is a phantom carrying the answer's type.
 */
export interface RequestSpec<I extends z.ZodType = z.ZodType, R = unknown> {
  readonly input: I;
  readonly result: R;
  /** One line for the README's table and for error messages. */
  readonly doc: string;
}

/** One event main pushes to the renderer. */
export interface EventSpec<P = unknown> {
  readonly payload: P;
  readonly doc: string;
}

/** Builds a request row; `R` is the answer's type (never checked at run time: main produces it). */
export function request<R>() {
  return <I extends z.ZodType>(input: I, doc: string): RequestSpec<I, R> => ({ input, doc, result: undefined as R });
}

/** Builds an event row. */
export function event<P>(doc: string): EventSpec<P> {
  return { doc, payload: undefined as P };
}
