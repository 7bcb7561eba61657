import { createActor, type Actor, type AnyActorLogic, type SnapshotFrom } from 'xstate';

/**
 * Creates and starts an actor whose snapshots a feature keeps in its own state: `onSnapshot` gets
 * the initial snapshot (as its own previous one) before the actor starts, then every new one with
 * the one before, so a feature can act on a change of state without keeping its own copy.
 */
export function runActor<L extends AnyActorLogic>(logic: L, onSnapshot: (snapshot: SnapshotFrom<L>, previous: SnapshotFrom<L>) => void): Actor<L> {
  const actor = createActor(logic);
  let previous: SnapshotFrom<L> = actor.getSnapshot();
  onSnapshot(previous, previous);
  actor.subscribe((snapshot) => {
    const before = previous;
    previous = snapshot;
    onSnapshot(snapshot, before);
  });
  actor.start();
  return actor;
}
