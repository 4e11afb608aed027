import { SamplerClient } from '../../../generated/sampler';
import {
  ContractHttpError,
  ContractTransportError,
} from '../../common/contract-runtime/client-errors';

export interface ConsumerTokenCommand {
  action: 'issue' | 'list' | 'revoke';
  consumerId?: string;
}

export interface CommandOutcome {
  /** Lines for standard output (the issued token is the only secret, shown once). */
  lines: string[];
  exitCode: number;
}

/**
 * `npm run sampler:consumer-tokens -- issue|list|revoke <consumer_id>`: the operator endpoints of
 * the running sampler over HTTP with its service token — the sampler holds the state, so the CLI
 * never opens its storage. Refusals are reported with the contract's error_code.
 */
export async function runConsumerTokenCommand(
  command: ConsumerTokenCommand,
  connection: { samplerUrl: string; samplerToken: string },
): Promise<CommandOutcome> {
  const client = new SamplerClient({
    baseUrl: connection.samplerUrl,
    token: connection.samplerToken,
    userAgent: 'render-crawler-consumer-tokens-cli',
  });
  try {
    switch (command.action) {
      case 'issue': {
        const issued = await client.issueConsumerToken({ consumer_id: requireId(command) });
        return {
          lines: [
            `issued a token for ${issued.consumer_id} at ${issued.issued_at}`,
            `consumer_token: ${issued.consumer_token}`,
            'Hand it to the consumer now: only its hash is kept, it cannot be shown again.',
          ],
          exitCode: 0,
        };
      }
      case 'list': {
        const { consumer_list: consumers } = await client.listConsumerTokens();
        if (consumers.length === 0) return { lines: ['no consumers'], exitCode: 0 };
        return {
          lines: [
            'consumer_id'.padEnd(32) + 'issued_at'.padEnd(24) + 'revoked_at',
            ...consumers.map(
              (row) =>
                row.consumer_id.padEnd(32) +
                row.issued_at.padEnd(24) +
                (row.revoked_at ?? '— (live)'),
            ),
          ],
          exitCode: 0,
        };
      }
      case 'revoke': {
        const revoked = await client.revokeConsumerToken({ consumer_id: requireId(command) });
        return {
          lines: [
            `revoked ${revoked.consumer_id} at ${revoked.revoked_at}: its token is refused from now on ` +
              'and its live claims were released',
          ],
          exitCode: 0,
        };
      }
    }
  } catch (error) {
    if (error instanceof ContractHttpError) {
      return {
        lines: [
          `the sampler refused: ${error.status} ${error.errorCode} — ${error.body.message ?? ''}`,
        ],
        exitCode: 1,
      };
    }
    if (error instanceof ContractTransportError) {
      return {
        lines: [`cannot reach the sampler at ${connection.samplerUrl}: ${error.message}`],
        exitCode: 1,
      };
    }
    throw error;
  }
}

function requireId(command: ConsumerTokenCommand): string {
  if (command.consumerId === undefined || command.consumerId.trim() === '') {
    throw new ContractHttpError(command.action, 400, {
      error_code: 'invalid_request',
      message: `${command.action} needs a consumer_id`,
    });
  }
  return command.consumerId.trim();
}
