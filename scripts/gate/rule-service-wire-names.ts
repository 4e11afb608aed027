import ts from 'typescript';
import { checkNameWords, SNAKE_CASE, type ConventionModel } from './convention-model';
import { finding, type Finding } from './finding';
import { nodeLocation, SERVICES_DIRECTORY, type GateContext } from './gate-context';
import { NearMissFinder } from './name-similarity';
import { memberNameNode, staticPropertyName } from './typescript-syntax';

/*
 * service-wire-names: hand-written code in services/ must not send or store a near miss of a contract
 * name (`timeoutMs`, `fetched_ta`, `count_url`, `timeout` for `timeout_ms`). Inside TypeScript,
 * camelCase locals and internal option objects are legitimate, so the rule only looks closely at
 * objects that are on the wire or stored. The heuristic, per object literal (and per interface or
 * type literal describing one):
 *
 *   It is "wire" when it has a key that is a contract name containing `_`, or it is passed directly
 *   (through parentheses, `as`, `satisfies`, `!`, `?:`, `??` and `||`) to
 *     - response.json(x), response.send(x);
 *     - a storage call: put(key, x), compareAndSwap(key, x, x), update(key, () => x),
 *       putMany([{ primaryKey, value: x }]), applyReplica([{ primaryKey, value: x }]) — also through
 *       rows.map(() => ({ primaryKey, value: x })); the row wrapper itself is the storage API;
 *     - a generated-client operation method, for its leading path/query/body arguments (not the
 *       trailing CallOptions);
 *   or it is the value of a `body` property (`fetch(url, { body })`, a contract answer), or it is
 *   JSON.stringify(x) where the stringification itself is sent (`body: JSON.stringify(x)`) —
 *   JSON.stringify alone also builds cache keys, log text and arguments of scripts injected into a
 *   page, which are not wire names; or it is nested (directly, or in an array literal) as a value
 *   of a wire object.
 *
 *   In a wire object every key must be a contract name, or a snake_case name that follows
 *   CONVENTION.md's word rules and is not a near miss. Outside wire objects only keys containing
 *   `_` are checked, and only for near misses. String keys of element accesses (`body['timeoutMs']`)
 *   are always checked for near misses. Enum values and table names (`url_task` is not a typo of
 *   `url_hash`), SCREAMING_CASE keys (environment variables) and keys that cannot be identifiers
 *   (`headers['Content-Type']`) are never near misses.
 *
 * Tests that deliberately send a wrong name mark the line with
 * `// contract-gate-ignore-next-line: <reason>` (applied by run-gate for every rule on services/).
 */

const OTHER_SUFFIXES = ['_count', '_list', '_at'];

/**
 * How an expression is used: `wire` — its object literals are sent or stored; `row` — it is a
 * storage row wrapper `{ primaryKey, value }` whose `value` is wire; `rows` — a list of those.
 */
type Usage = 'none' | 'wire' | 'row' | 'rows';

/** Storage methods and the positions of their arguments that hold stored documents. */
const STORAGE_ARGUMENTS: Record<string, Record<number, Usage>> = {
  put: { 1: 'wire' },
  compareAndSwap: { 1: 'wire', 2: 'wire' },
  update: { 1: 'wire' },
  putMany: { 0: 'rows' },
  applyReplica: { 0: 'rows' },
};
/**
 * Methods that send their first argument as a contract answer (express). Not stream write/end:
 * gRPC and HTTP streams carry other protocols (TiKV's messages have their own field names).
 */
const SENDING_METHODS = new Set(['json', 'send']);
/** An object property with this name is an HTTP body (`fetch(url, { body })`, a contract answer). */
const BODY_PROPERTY = 'body';
/** Element-access keys that cannot be JSON field names (`headers['Content-Type']`) are skipped. */
const IDENTIFIER_LIKE = /^[A-Za-z_$][\w$]*$/;
/** Environment variables and constants (`LEASE_TTL_SECONDS`) are not JSON names. */
const SCREAMING_CASE = /^[A-Z][A-Z0-9_]*$/;

export function checkServiceWireNames(context: GateContext): Finding[] {
  const names = context.contractNames;
  const convention = context.convention;
  const finder = new NearMissFinder(names.fieldNames, {
    unitSuffixes: convention?.unitSuffixes ?? [],
    otherSuffixes: OTHER_SUFFIXES,
    knownNames: [...names.enumValues, ...names.tableNames],
  });
  const findings: Finding[] = [];
  for (const file of context.typescriptFiles(SERVICES_DIRECTORY)) {
    const visitor = new WireNameVisitor(
      context.sourceFile(file),
      finder,
      convention,
      names.clientWireArgumentCounts,
    );
    findings.push(...visitor.run());
  }
  return findings;
}

class WireNameVisitor {
  readonly #findings: Finding[] = [];
  /** Bound once: a closure per visited node was most of this rule's garbage. */
  readonly #visitPlain = (child: ts.Node): void => this.#visit(child, 'none');
  readonly #visitWire = (child: ts.Node): void => this.#visit(child, 'wire');

  constructor(
    private readonly source: ts.SourceFile,
    private readonly finder: NearMissFinder,
    private readonly convention: ConventionModel | undefined,
    private readonly clientWireArgumentCounts: ReadonlyMap<string, number>,
  ) {}

  run(): Finding[] {
    this.#visit(this.source, 'none');
    return this.#findings;
  }

  #visit(node: ts.Node, usage: Usage): void {
    if (ts.isObjectLiteralExpression(node)) {
      this.#visitObject(node, usage);
    } else if (ts.isArrayLiteralExpression(node)) {
      node.elements.forEach((element) => this.#visit(element, usage === 'rows' ? 'row' : usage));
    } else if (
      ts.isParenthesizedExpression(node) ||
      ts.isAsExpression(node) ||
      ts.isSatisfiesExpression(node) ||
      ts.isNonNullExpression(node) ||
      ts.isTypeAssertionExpression(node)
    ) {
      this.#visit(node.expression, usage);
    } else if (ts.isConditionalExpression(node)) {
      this.#visit(node.condition, 'none');
      this.#visit(node.whenTrue, usage);
      this.#visit(node.whenFalse, usage);
    } else if (ts.isBinaryExpression(node) && isFallbackOperator(node.operatorToken.kind)) {
      this.#visit(node.left, usage);
      this.#visit(node.right, usage);
    } else if (ts.isCallExpression(node)) {
      this.#visitCall(node, usage);
    } else if (ts.isElementAccessExpression(node)) {
      this.#visitElementAccess(node);
    } else if (ts.isInterfaceDeclaration(node) || ts.isTypeLiteralNode(node)) {
      this.#visitMembers(node.members, usage);
    } else if (ts.isArrayTypeNode(node)) {
      this.#visit(node.elementType, usage);
    } else if (ts.isUnionTypeNode(node) || ts.isParenthesizedTypeNode(node)) {
      ts.forEachChild(node, usage === 'wire' ? this.#visitWire : this.#visitPlain);
    } else {
      ts.forEachChild(node, this.#visitPlain);
    }
  }

  #visitObject(node: ts.ObjectLiteralExpression, usage: Usage): void {
    if (usage === 'row') {
      for (const property of node.properties) {
        const isValue = staticPropertyName(memberNameNode(property)) === 'value';
        this.#visitProperty(property, isValue ? 'wire' : 'none');
      }
      return;
    }
    const isWire = usage === 'wire' || this.#hasContractKey(node.properties);
    for (const property of node.properties) {
      if (ts.isPropertyAssignment(property) || ts.isShorthandPropertyAssignment(property)) {
        this.#checkKey(property.name, isWire);
      }
      const isBody = staticPropertyName(memberNameNode(property)) === BODY_PROPERTY;
      this.#visitProperty(property, isWire || isBody ? 'wire' : 'none');
    }
  }

  /** A property's value gets `usage`; its (computed) name and anything else is ordinary code. */
  #visitProperty(property: ts.ObjectLiteralElementLike, usage: Usage): void {
    if (usage !== 'none' && ts.isPropertyAssignment(property)) {
      this.#visit(property.name, 'none');
      this.#visit(property.initializer, usage);
    } else {
      ts.forEachChild(property, this.#visitPlain);
    }
  }

  #visitMembers(members: ts.NodeArray<ts.TypeElement>, usage: Usage): void {
    const isWire = usage === 'wire' || this.#hasContractKey(members);
    for (const member of members) {
      if (ts.isPropertySignature(member)) {
        this.#checkKey(member.name, isWire);
        if (member.type !== undefined) {
          this.#visit(member.type, isWire ? 'wire' : 'none');
        }
      } else {
        ts.forEachChild(member, this.#visitPlain);
      }
    }
  }

  #hasContractKey(members: ts.NodeArray<ts.ObjectLiteralElementLike | ts.TypeElement>): boolean {
    return members.some((member) => {
      const key = staticPropertyName(memberNameNode(member));
      return key !== undefined && key.includes('_') && this.finder.isContractName(key);
    });
  }

  #visitCall(node: ts.CallExpression, usage: Usage): void {
    this.#visit(node.expression, 'none');
    const argumentUsage = this.#argumentUsage(node, usage);
    node.arguments.forEach((argument, index) => {
      const argumentAs = argumentUsage[index] ?? 'none';
      if (
        (ts.isArrowFunction(argument) || ts.isFunctionExpression(argument)) &&
        argumentAs !== 'none'
      ) {
        this.#visitReturns(argument, argumentAs);
      } else {
        this.#visit(argument, argumentAs);
      }
    });
  }

  /** Which arguments of this call hold wire data, per the heuristic above. */
  #argumentUsage(node: ts.CallExpression, usage: Usage): Record<number, Usage> {
    const callee = node.expression;
    if (!ts.isPropertyAccessExpression(callee)) {
      return {};
    }
    const method = callee.name.text;
    if (ts.isIdentifier(callee.expression) && callee.expression.text === 'JSON') {
      // Only a stringification that is itself sent: JSON.stringify also builds cache keys, log
      // text and arguments for scripts injected into a page, none of which are wire names.
      return method === 'stringify' && usage === 'wire' ? { 0: 'wire' } : {};
    }
    if (usage === 'rows' && method === 'map') {
      return { 0: 'row' };
    }
    if (SENDING_METHODS.has(method)) {
      return { 0: 'wire' };
    }
    const clientArguments = this.clientWireArgumentCounts.get(method);
    if (clientArguments !== undefined) {
      return Object.fromEntries(
        Array.from({ length: clientArguments }, (_, index) => [index, 'wire']),
      );
    }
    return STORAGE_ARGUMENTS[method] ?? {};
  }

  /** What a callback returns gets `usage`; the rest of its body is ordinary code. */
  #visitReturns(fn: ts.ArrowFunction | ts.FunctionExpression, usage: Usage): void {
    fn.parameters.forEach((parameter) => this.#visit(parameter, 'none'));
    if (!ts.isBlock(fn.body)) {
      this.#visit(fn.body, usage);
      return;
    }
    const walk = (node: ts.Node): void => {
      if (ts.isReturnStatement(node)) {
        if (node.expression !== undefined) {
          this.#visit(node.expression, usage);
        }
      } else if (ts.isFunctionLike(node) || ts.isExpression(node)) {
        this.#visit(node, 'none');
      } else {
        ts.forEachChild(node, walk);
      }
    };
    ts.forEachChild(fn.body, walk);
  }

  #visitElementAccess(node: ts.ElementAccessExpression): void {
    this.#visit(node.expression, 'none');
    const argument = node.argumentExpression;
    if (ts.isStringLiteralLike(argument)) {
      if (IDENTIFIER_LIKE.test(argument.text)) {
        this.#checkNearMiss(argument, argument.text);
      }
    } else {
      this.#visit(argument, 'none');
    }
  }

  #checkKey(nameNode: ts.PropertyName, isWire: boolean): void {
    const key = staticPropertyName(nameNode);
    if (key === undefined || this.finder.isContractName(key)) {
      return;
    }
    if (!isWire) {
      if (key.includes('_')) {
        this.#checkNearMiss(nameNode, key);
      }
      return;
    }
    if (this.#checkNearMiss(nameNode, key)) {
      return;
    }
    const problem =
      this.convention === undefined
        ? SNAKE_CASE.test(key)
          ? undefined
          : { message: `\`${key}\` is not lowercase snake_case`, suggestion: undefined }
        : checkNameWords(key, this.convention)[0];
    if (problem !== undefined) {
      this.#findings.push(
        finding(
          'service-wire-names',
          nodeLocation(this.source, nameNode),
          `key \`${key}\` of an object that is sent or stored does not follow CONVENTION.md: ${problem.message}`,
          problem.suggestion,
        ),
      );
    }
  }

  /** Reports `key` if it is a near miss of a contract name; true when it did. */
  #checkNearMiss(node: ts.Node, key: string): boolean {
    const nearMiss = SCREAMING_CASE.test(key) ? undefined : this.finder.find(key);
    if (nearMiss === undefined) {
      return false;
    }
    this.#findings.push(
      finding(
        'service-wire-names',
        nodeLocation(this.source, node),
        `\`${key}\` is not a contract name but looks like \`${nearMiss.contractName}\` ` +
          `(${nearMiss.reason}); wire and storage names are exactly those of CONTRACT.md`,
        nearMiss.contractName,
      ),
    );
    return true;
  }
}

function isFallbackOperator(kind: ts.SyntaxKind): boolean {
  return kind === ts.SyntaxKind.QuestionQuestionToken || kind === ts.SyntaxKind.BarBarToken;
}
