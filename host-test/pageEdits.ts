/**
 * Registers pageHooks.mjs, so that the worker host's "Run my version" (PlaygroundHost.runEdited, its
 * compiler and loader) runs in Node. Import this before the first runEdited.
 */
import { register } from 'node:module';

register(new URL('./pageHooks.mjs', import.meta.url));
