import { answerStarter } from '../../../common/process/one-answer-thread';
import { checksumOfPath, type ChecksumRequest } from './snapshot-checksum';

/** The thread checksumOnThread starts: one checksum, answered, then the thread ends. */
answerStarter((request) => checksumOfPath(request as ChecksumRequest));
