/** One member of OMP 18.2.3's extension API, as its declarations (fixtures/omp-api/) list it. */
export interface ApiMember {
  readonly key: string;
  readonly kind: 'method' | 'property' | 'event';
  /** OMP's one-line doc comment ('' when none). */
  readonly summary: string;
  readonly group: 'pi' | 'events' | 'ctx' | 'ui' | 'sessionManager' | 'commandCtx' | 'tool' | 'command';
  readonly optional?: boolean;
  /** An event's object: its fields. */
  readonly fields?: readonly string[];
  /** What an event's handler may return (a type name), or null. */
  readonly result?: string | null;
}

export const DECLARATIONS: string;
export const DOC_PATH: string;
/** Every member, in OMP's declaration order, each once. */
export function listMembers(): ApiMember[];
/** docs/extension-api.md's text for the worker's table. */
export function renderApiDoc(support: Readonly<Record<string, readonly [string, string?]>>, rows?: readonly ApiMember[]): string;
