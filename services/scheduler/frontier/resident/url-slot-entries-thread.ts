import { answerStarter } from '../../../common/process/one-answer-thread';
import { urlSlotEntriesOf } from './url-slot-index';

/** The thread urlSlotEntriesOnThread starts: one index's entries, moved to it, then it ends. */
answerStarter(
  (firstWords) => urlSlotEntriesOf(firstWords as Uint32Array),
  (entries) => [entries.buffer],
);
