import ts from 'typescript';

/** The text of a property name known without running the code: `a`, `'a'`, `` [`a`] ``, `['a']`. */
export function staticPropertyName(name: ts.Node | undefined): string | undefined {
  if (name === undefined) {
    return undefined;
  }
  if (ts.isIdentifier(name) || ts.isStringLiteralLike(name)) {
    return name.text;
  }
  if (ts.isComputedPropertyName(name) && ts.isStringLiteralLike(name.expression)) {
    return name.expression.text;
  }
  return undefined;
}

/** The name node of an object-literal element or a type member, if it has one. */
export function memberNameNode(
  member: ts.ObjectLiteralElementLike | ts.TypeElement,
): ts.Node | undefined {
  return 'name' in member ? member.name : undefined;
}
