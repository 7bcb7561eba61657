/**
 * Whether a real model is set up on this page, for the lesson step that offers "Ask a real model".
 * On the first screen (a few bytes): the Real model code itself loads when its section opens.
 * A model is configured once a connection test passed, or when settings were remembered on this
 * device. The settings themselves (and the key) are not here.
 */
export const REMEMBERED_MODEL_KEY = 'seed-desk.model';

function rememberedAtStart(): boolean {
  try {
    return typeof localStorage !== 'undefined' && localStorage.getItem(REMEMBERED_MODEL_KEY) !== null;
  } catch {
    return false;
  }
}

export const modelSetup = $state({ configured: rememberedAtStart(), open: false, askFromLesson: 0 });
