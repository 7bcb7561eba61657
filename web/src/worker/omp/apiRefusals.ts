import { API_SUPPORT, refusalOf } from './apiSupport';
import { PageHostError } from './runPolicy';

/** Keys in the table directly under `prefix` (`ctx.ui` → `ctx.ui.custom()`, not `ctx.ui.x.y`), with whether each is a method. */
function membersUnder(prefix: string): { readonly name: string; readonly key: string; readonly method: boolean }[] {
  const found = [];
  for (const key of Object.keys(API_SUPPORT)) {
    if (!key.startsWith(`${prefix}.`)) continue;
    const rest = key.slice(prefix.length + 1);
    const method = rest.endsWith('()');
    const name = method ? rest.slice(0, -2) : rest;
    if (/^[A-Za-z_$][\w$]*$/.test(name)) found.push({ name, key, method });
  }
  return found;
}

/**
 * Gives `target` every member the table lists under `prefix` that does not work in the page: a
 * method that throws its sentence when called, a property that throws it when read (not
 * enumerable, so spreading or logging the object does not throw). Nothing an extension calls
 * silently does nothing; what works is the target's own.
 */
export function withRefusals<T extends object>(prefix: string, target: T): T {
  for (const { name, key, method } of membersUnder(prefix)) {
    const refusal = refusalOf(key);
    if (refusal === null) continue;
    const refuse = (): never => {
      throw new PageHostError(refusal);
    };
    Object.defineProperty(target, name, method ? { value: refuse, enumerable: false } : { get: refuse, enumerable: false });
  }
  return target;
}

