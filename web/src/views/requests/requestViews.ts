import type { Component } from 'svelte';
import type { Playground } from '../../app/playground.svelte';
import type { UiRequestKind } from '../../protocol/messages';
import ConfirmRequest from './ConfirmRequest.svelte';
import EditorRequest from './EditorRequest.svelte';
import InputRequest from './InputRequest.svelte';
import SelectRequest from './SelectRequest.svelte';

/**
 * One view per kind of request the extension can make of the UI (`ctx.ui.confirm`, `select`,
 * `input`, `editor`): a kind without a view does not compile. A select or an input shows itself while the
 * command line's `pending` request is of its kind; a confirmation while the confirmation machine
 * is open or committing. Each answers through the command line.
 */
export const REQUEST_VIEWS: Readonly<Record<UiRequestKind, Component<{ playground: Playground }>>> = {
  confirm: ConfirmRequest,
  select: SelectRequest,
  input: InputRequest,
  editor: EditorRequest,
};
