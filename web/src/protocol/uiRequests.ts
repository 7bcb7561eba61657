import '$domain/zodSetup';
import * as z from 'zod/mini';

/**
 * What extension code asks of the UI and waits for (`ctx.ui.confirm`, `select`, `input`, `editor`), as it
 * travels to the page, and the page's answer as it travels back: one shape for every kind. The
 * worker keeps the waiting run under the request's id; the page shows the request with the view
 * for its kind and sends the answer back under the same id (`answerUi`). `notify` waits for
 * nothing, so it travels as the run's text, not as a request.
 */
export const UiRequestSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('confirm'), id: z.string(), title: z.string(), message: z.string() }),
  z.object({ kind: z.literal('select'), id: z.string(), title: z.string(), options: z.array(z.string()) }),
  z.object({ kind: z.literal('input'), id: z.string(), title: z.string(), placeholder: z.nullable(z.string()) }),
  // `ctx.ui.editor(title, prefill)`: several lines, the prefill already in the box (OMP's RPC mode sends the same two).
  z.object({ kind: z.literal('editor'), id: z.string(), title: z.string(), prefill: z.string() }),
]);
export type UiRequest = z.infer<typeof UiRequestSchema>;
export type UiRequestKind = UiRequest['kind'];
/** A request as the runtime makes it, before the worker gives it an id. */
export type UiRequestBody = UiRequest extends infer R ? (R extends { id: string } ? Omit<R, 'id'> : never) : never;

/** The page's answer; `null` is a cancelled select or input (the extension gets `undefined`). */
export const UiAnswerSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('confirm'), id: z.string(), confirmed: z.boolean() }),
  z.object({ kind: z.literal('select'), id: z.string(), choice: z.nullable(z.string()) }),
  z.object({ kind: z.literal('input'), id: z.string(), text: z.nullable(z.string()) }),
  z.object({ kind: z.literal('editor'), id: z.string(), text: z.nullable(z.string()) }),
]);
export type UiAnswer = z.infer<typeof UiAnswerSchema>;

/**
 * The answer a host gives without asking anyone, by kind: the no-op UI of a host without UI
 * (confirm false, select, input and editor undefined: OMP `noOpUIContext`), or a second client that has
 * already said yes (`yes`: confirm true; a select, input or editor has no "yes", so it is cancelled).
 */
export function answerWithoutAsking(request: UiRequest, yes: boolean): UiAnswer {
  switch (request.kind) {
    case 'confirm':
      return { kind: 'confirm', id: request.id, confirmed: yes };
    case 'select':
      return { kind: 'select', id: request.id, choice: null };
    case 'input':
      return { kind: 'input', id: request.id, text: null };
    case 'editor':
      return { kind: 'editor', id: request.id, text: null };
  }
}

/** What the extension's `await` resolves to for an answer. */
export function valueOfAnswer(answer: UiAnswer): boolean | string | undefined {
  switch (answer.kind) {
    case 'confirm':
      return answer.confirmed;
    case 'select':
      return answer.choice ?? undefined;
    case 'input':
    case 'editor':
      return answer.text ?? undefined;
  }
}
