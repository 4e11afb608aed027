import ts from 'typescript';
import { cellLocation, type StorageKeyRow } from './contract-model';
import { checkNameWords, type ConventionModel } from './convention-model';
import { finding, type Finding } from './finding';
import { nodeLocation, SERVICES_DIRECTORY, type GateContext } from './gate-context';
import { firstToken } from './markdown-tables';
import { closestName } from './name-similarity';

/*
 * storage-key: every storage key is `{service}:{table_name}:{primary_key}`, built by its owner only,
 * in a table CONTRACT.md lists for that owner, and never under `crs:`.
 *
 * In services/, string literals and the literal head of template literals are read as keys when
 * they start with `<service>:` or `crs:`, or look like `<word>:<table>:` with a table suffix from
 * CONVENTION.md (a mistyped service such as `sched:url_task:…`). Text with whitespace is prose, not
 * a key — except that anything starting with `crs:` is always reported. A key under another service's
 * prefix from services/<service>/ is reported, and code outside a service's folder (services/common/)
 * may not hard-code any service prefix: it takes the service from its keyspace handle. Table names
 * passed as literals to `.table()` / `.replicaTable()` (and the service passed to
 * `openServiceKeyspace()`) in services/<service>/ must be that service's.
 *
 * CONTRACT.md's own storage key rows must follow the same shape, with a known service, a table name
 * that follows the word rules and ends in one of CONVENTION.md's table suffixes, and no `crs`.
 */

/** The owners of a keyspace (CONVENTION.md: "The service is the owner"). */
const SERVICES = ['scheduler', 'downloader', 'sampler'];
const RESERVED_PREFIX = 'crs';
const TABLE_METHODS = new Set(['table', 'replicaTable']);
const KEYSPACE_FACTORY = 'openServiceKeyspace';
const KEY_HEAD = /^([a-z][a-z0-9_]*):([a-z][a-z0-9_]*)?/;

export function checkStorageKeys(context: GateContext): Finding[] {
  const convention = context.convention;
  const rows = context.contract?.storageKeys;
  const findings = rows === undefined ? [] : checkContractRows(rows, convention);
  const tables = rows === undefined ? undefined : tablesByService(rows);
  for (const file of context.typescriptFiles(SERVICES_DIRECTORY)) {
    const owner = /^services\/([^/]+)\//.exec(file)?.[1];
    const checker = new ServiceKeyChecker(
      context.sourceFile(file),
      owner !== undefined && SERVICES.includes(owner) ? owner : undefined,
      tables,
      convention?.tableSuffixes ?? [],
    );
    findings.push(...checker.run());
  }
  return findings;
}

function tablesByService(rows: StorageKeyRow[]): Map<string, Set<string>> {
  const tables = new Map<string, Set<string>>(SERVICES.map((service) => [service, new Set()]));
  for (const row of rows) {
    const [service, table] = row.key.split(':');
    if (table !== undefined) {
      tables.get(service)?.add(table);
    }
  }
  return tables;
}

function checkContractRows(
  rows: StorageKeyRow[],
  convention: ConventionModel | undefined,
): Finding[] {
  const findings: Finding[] = [];
  for (const row of rows) {
    const location = cellLocation(row.keyCell);
    const report = (message: string, suggestion?: string) =>
      findings.push(finding('storage-key', location, message, suggestion));
    const parts = row.key.split(':');
    const [service, table = ''] = parts;
    if (service === RESERVED_PREFIX) {
      report(
        "`crs:` is never a key prefix; the downloader's keys start with `downloader:`",
        `downloader:${parts.slice(1).join(':')}`,
      );
      continue;
    }
    if (parts.length !== 3 || parts.some((part) => part === '')) {
      report(
        `\`${row.key}\` must have exactly three non-empty parts: {service}:{table_name}:{primary_key}`,
      );
    }
    if (!SERVICES.includes(service)) {
      report(
        `\`${service}\` is not a service (${SERVICES.join(', ')})`,
        closestName(service, SERVICES),
      );
    }
    const owner = row.ownerCell === undefined ? undefined : firstToken(row.ownerCell);
    if (owner !== undefined && SERVICES.includes(owner) && owner !== service) {
      report(
        `the key starts with \`${service}:\` but its owner is \`${owner}\`; a service keys only under its own prefix`,
        `${owner}:${parts.slice(1).join(':')}`,
      );
    }
    if (convention !== undefined && table !== '') {
      for (const problem of checkNameWords(table, convention)) {
        report(`table name ${problem.message}`, problem.suggestion);
      }
      const hasJobSuffix = convention.tableSuffixes.some(
        (suffix) => table.endsWith(suffix) && table.length > suffix.length,
      );
      if (!hasJobSuffix) {
        report(
          `table \`${table}\` must end in a suffix naming its job (${convention.tableSuffixes.join(', ')}); ` +
            'if none fits, the table does two jobs',
        );
      }
    }
  }
  return findings;
}

class ServiceKeyChecker {
  readonly #findings: Finding[] = [];

  constructor(
    private readonly source: ts.SourceFile,
    /** The service whose folder the file is in; undefined for services/common/ and the like. */
    private readonly owner: string | undefined,
    private readonly tables: Map<string, Set<string>> | undefined,
    private readonly tableSuffixes: readonly string[],
  ) {}

  run(): Finding[] {
    const visit = (node: ts.Node): void => {
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
        this.#checkKeyText(node, node.text, { isComplete: true });
      } else if (ts.isTemplateHead(node)) {
        this.#checkKeyText(node, node.text, { isComplete: false });
      } else if (ts.isCallExpression(node)) {
        this.#checkCall(node);
      }
      ts.forEachChild(node, visit);
    };
    visit(this.source);
    return this.#findings;
  }

  #report(node: ts.Node, message: string, suggestion?: string): void {
    this.#findings.push(
      finding('storage-key', nodeLocation(this.source, node), message, suggestion),
    );
  }

  /** `isComplete`: the whole key is literal (not just the head of a template). */
  #checkKeyText(node: ts.Node, text: string, { isComplete }: { isComplete: boolean }): void {
    if (text.startsWith(`${RESERVED_PREFIX}:`)) {
      this.#report(
        node,
        '`crs:` is never a key prefix ("crs" names both the system and the downloader)',
        `downloader:${text.slice(RESERVED_PREFIX.length + 1)}`,
      );
      return;
    }
    const head = KEY_HEAD.exec(text);
    if (head === null || /\s/.test(text)) {
      return;
    }
    const [, service, table] = head;
    const looksLikeKey =
      SERVICES.includes(service) ||
      (table !== undefined && this.tableSuffixes.some((suffix) => table.endsWith(suffix)));
    if (!looksLikeKey) {
      return;
    }
    if (!SERVICES.includes(service)) {
      this.#report(
        node,
        `\`${service}:\` is not a service prefix (${SERVICES.join(', ')})`,
        closestName(service, SERVICES),
      );
      return;
    }
    if (this.owner === undefined) {
      this.#report(
        node,
        `\`${service}:\` is hard-coded outside a service's folder; shared code takes the service ` +
          'from its keyspace handle and never builds a prefix itself',
      );
      return;
    }
    if (service !== this.owner) {
      this.#report(
        node,
        `services/${this.owner}/ builds a key under \`${service}:\`; a service keys only under its ` +
          'own prefix (data crosses services over a contract edge into a `_replica` table)',
        `${this.owner}:${text.slice(service.length + 1)}`,
      );
    }
    const parts = text.split(':');
    if (isComplete ? parts.length !== 3 : parts.length > 3) {
      this.#report(
        node,
        `\`${text}\` is not {service}:{table_name}:{primary_key} (${parts.length} parts); a primary ` +
          'key never contains `:` (compose it with primaryKey())',
      );
    }
    if (table !== undefined && (isComplete || parts.length >= 3)) {
      this.#checkTable(node, service, table);
    }
  }

  #checkCall(node: ts.CallExpression): void {
    const callee = node.expression;
    const [firstArgument] = node.arguments;
    if (
      this.owner === undefined ||
      firstArgument === undefined ||
      !ts.isStringLiteralLike(firstArgument)
    ) {
      return;
    }
    if (ts.isPropertyAccessExpression(callee) && TABLE_METHODS.has(callee.name.text)) {
      this.#checkTable(firstArgument, this.owner, firstArgument.text);
    } else if (
      ts.isIdentifier(callee) &&
      callee.text === KEYSPACE_FACTORY &&
      firstArgument.text !== this.owner
    ) {
      this.#report(
        firstArgument,
        `services/${this.owner}/ opens the keyspace of \`${firstArgument.text}\`; a service reads and ` +
          'writes only its own',
        this.owner,
      );
    }
  }

  #checkTable(node: ts.Node, service: string, table: string): void {
    const listed = this.tables?.get(service);
    if (listed === undefined || listed.has(table)) {
      return;
    }
    const owners = [...(this.tables?.entries() ?? [])]
      .filter(([, names]) => names.has(table))
      .map(([name]) => name);
    this.#report(
      node,
      `table \`${table}\` is not listed for ${service} in CONTRACT.md's storage keys` +
        (owners.length > 0 ? ` (it is ${owners.join(' and ')}'s)` : ''),
      closestName(table, listed),
    );
  }
}
