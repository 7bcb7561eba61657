/**
 * The watchdog takes a worker for hung only when it is silent (issue 27's flake, issue 23's
 * promise). The ordering that broke CI, written out: a request of the learner's edited extension
 * waits in the worker's queue for longer than the silence allowed, while the worker answers every
 * heartbeat. A timer per request replaced that healthy worker; the watchdog must not.
 */
import { describe, expect, it } from 'vitest';
import type { RequestBody } from '../protocol/messages';
import { FakeClock } from './fakeClock.testkit';
import { HEARTBEAT_MS, SILENCE_MS, Watchdog } from './watchdog';

const LINE: RequestBody = { type: 'line', text: '/seeds reserve marigold 1' };
const CONFIRM: RequestBody = { type: 'answerUi', answer: { kind: 'confirm', id: 'd1', confirmed: true } };

function setup(excused = () => false) {
  const clock = new FakeClock();
  const hung: RequestBody[] = [];
  let pings = 0;
  let answering = true;
  const watchdog: Watchdog = new Watchdog(
    () => {
      pings++;
      // A live worker answers a heartbeat at once, outside its queue.
      if (answering) watchdog.heard();
    },
    (body) => hung.push(body),
    excused,
    clock,
  );
  return {
    clock,
    watchdog,
    hung,
    pings: () => pings,
    mute: () => (answering = false),
  };
}

describe('the watchdog', () => {
  it('never replaces a worker that answers its heartbeats, however long a request waits in the queue', () => {
    const { clock, watchdog, hung, pings } = setup();
    watchdog.watch(LINE);
    const stop = watchdog.watch(CONFIRM);
    clock.advance(20 * SILENCE_MS);
    expect(hung).toEqual([]);
    expect(pings()).toBe((20 * SILENCE_MS) / HEARTBEAT_MS);
    stop();
  });

  it('replaces a silent worker within one heartbeat of SILENCE_MS, naming the oldest request', () => {
    const { clock, watchdog, hung, mute } = setup();
    watchdog.watch(CONFIRM);
    watchdog.watch(LINE);
    clock.advance(HEARTBEAT_MS * 2);
    mute(); // the learner's loop starts: the worker's one thread answers nothing more
    clock.advance(SILENCE_MS - 1);
    expect(hung).toEqual([]);
    clock.advance(HEARTBEAT_MS);
    expect(hung).toEqual([CONFIRM]);
    // Once told, it stops: no second restart for the same silence.
    clock.advance(10 * SILENCE_MS);
    expect(hung).toHaveLength(1);
  });

  it("does not take the page's own stall for the worker's silence: answers waiting in the page's queue arrive after its first tick", () => {
    const { clock, watchdog, hung, mute } = setup();
    watchdog.watch(LINE);
    mute();
    // The page's thread is held for 4.5 s (a long render on a loaded machine): no tick runs, and
    // the worker's answers wait in the page's queue behind the first late tick.
    clock.hold(3 * SILENCE_MS);
    clock.advance(0);
    expect(hung).toEqual([]);
    watchdog.heard(); // the queued answer, read after that tick
    clock.advance(SILENCE_MS - HEARTBEAT_MS);
    expect(hung).toEqual([]);
    // A worker that stays silent from then on is still replaced.
    clock.advance(2 * HEARTBEAT_MS);
    expect(hung).toEqual([LINE]);
  });

  it('on a loaded machine whose ticks come late, a silent worker is still replaced once three heartbeats went unanswered', () => {
    const { clock, watchdog, hung, mute } = setup();
    watchdog.watch(LINE);
    mute();
    // Each tick comes 250 ms late: 500 ms apart instead of 250.
    for (let tick = 1; tick <= 3; tick++) {
      clock.hold(500);
      clock.advance(0);
      expect(hung).toEqual([]);
    }
    // The fourth, 2 s in: three heartbeats unanswered, 2 s of silence.
    clock.hold(500);
    clock.advance(0);
    expect(hung).toEqual([LINE]);
  });

  it('excuses silence while the compiler holds the worker, and counts again after it', () => {
    let compiling = true;
    const { clock, watchdog, hung, mute } = setup(() => compiling);
    watchdog.watch(LINE);
    mute();
    clock.advance(10 * SILENCE_MS);
    expect(hung).toEqual([]);
    compiling = false;
    clock.advance(SILENCE_MS - HEARTBEAT_MS);
    expect(hung).toEqual([]);
    clock.advance(2 * HEARTBEAT_MS);
    expect(hung).toEqual([LINE]);
  });

  it('stops asking once nothing is watched', () => {
    const { clock, watchdog, pings, hung, mute } = setup();
    const stop = watchdog.watch(LINE);
    clock.advance(HEARTBEAT_MS);
    stop();
    mute();
    const before = pings();
    clock.advance(10 * SILENCE_MS);
    expect(pings()).toBe(before);
    expect(hung).toEqual([]);
  });
});
