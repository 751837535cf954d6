// ts_uses: every use of every function, method, class and interface defined under ROOT, as the TypeScript
// compiler resolves it (one ts.createProgram over all the .ts/.tsx files under ROOT, .d.ts and dot folders
// and node_modules left out, and its type checker; what they import from outside ROOT is missing and stays
// unresolved). Ground truth for the TypeScript references and impact suites (benchmarks/ts_suites.sh), as
// JavaUses is for Java, go_uses for Go and jedi for Python.
// Definitions: function declarations, methods and method signatures (interfaces, object literals), classes,
// interfaces, and a const whose initializer is an arrow function or function expression (named by the
// const). One definition per symbol, at the name of its first declaration: a function's or method's
// overloads (and a class merged with an interface or namespace) are one definition, at the first overload.
// Uses: every Identifier and PrivateIdentifier that the checker binds to a definition (aliases followed to
// what they import; `{ foo }` shorthand counts for the value foo), except the names of declarations
// themselves and anything inside an import or export declaration (`export { a } from`, `import { a }`);
// `new Foo()` and `Foo` in a type or heritage clause count for class Foo; super(..) is not a use; x.m()
// counts for the method the checker binds (an interface's method signature when x has the interface's
// type; both members when x has a union type). As in JavaUses a use is kept only where the identifier
// spells the definition's name (`import { a as b }` then b(): not a use of a).
// With -js the same for JavaScript (.js, .cjs, .mjs, .jsx; allowJs and checkJs): a function or class assigned to a
// property (`Runner.prototype.run = function`, `exports.f = …`) or written as an object literal's property is a
// definition too, and so is a var or let whose value is a function; `const { a } = require("./x")` is an import
// (no use); a call through a module object whose property is written as a shorthand (`module.exports = { mask }`,
// then `util.mask()`) or through a variable named as what it takes (`var f = errors.f`) is a use of the function;
// and -spans lists named function expressions too (`new Promise(function dispatch(resolve) {})`).
// Usage: NODE_PATH=DIR/node_modules node ts_uses.js [-js] ROOT   (DIR: where `npm install typescript` put it)
//          JSON lines: name, path, line, uses [[path, line], ...] (one per definition, by path, line, name)
//        node ts_uses.js -implements ROOT
//          JSON lines: name, path, line, implementers: for every interface and abstract class under ROOT,
//          the classes under ROOT (abstract ones too) that extend or implement it, directly or through
//          other classes' and interfaces' heritage clauses under ROOT (as the checker resolves their names;
//          a class that only matches structurally is not counted)
//        node ts_uses.js -spans ROOT
//          JSON lines: name, path, line, end, kind: every function, method, constructor, accessor and
//          function-valued const under ROOT with a body (line: its name's, `constructor` for a constructor;
//          end: its last line), the enclosing definitions of the impact suites (Universal Ctags 5.9 gives
//          no end lines for TypeScript)
// Lines are 1-based, the line of the declaration's name token. Summary on stderr: files, diagnostics,
// identifiers with no symbol (mostly members of values whose type comes from a missing dependency).
"use strict";
const fs = require("fs");
const path = require("path");
const ts = require("typescript");

let mode = "uses";
let javascript = false;
const args = process.argv.slice(2);
while (args.length > 1 && args[0].startsWith("-")) {
  const a = args.shift();
  if (a === "-implements") mode = "implements";
  else if (a === "-spans") mode = "spans";
  else if (a === "-js") javascript = true;
  else throw new Error(`unknown option ${a}`);
}
if (args.length !== 1) {
  process.stderr.write("usage: node ts_uses.js [-js] [-implements|-spans] ROOT\n");
  process.exit(2);
}
const root = path.resolve(args[0]);

function walk(dir, out) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (e.name.startsWith(".") || e.name === "node_modules") continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.isFile() && (javascript ? /\.[cm]?jsx?$/ : /\.tsx?$/).test(e.name) && !e.name.endsWith(".d.ts")) out.push(p);
  }
  return out;
}
const files = walk(root, []);
const program = ts.createProgram(files, {
  noEmit: true,
  target: ts.ScriptTarget.ES2020,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Node10,
  experimentalDecorators: true,
  skipLibCheck: true,
  strict: false,
  allowJs: javascript,
  checkJs: javascript,
  esModuleInterop: true,
  jsx: ts.JsxEmit.Preserve,
  types: [],
});
const checker = program.getTypeChecker();
const sources = program.getSourceFiles().filter((sf) => !sf.isDeclarationFile && rel(sf) !== null);

function rel(sf) {
  const p = path.resolve(sf.fileName);
  return p.startsWith(root + path.sep) ? path.relative(root, p).split(path.sep).join("/") : null;
}
function lineOf(sf, pos) {
  return sf.getLineAndCharacterOfPosition(pos).line + 1;
}
function skipOuter(e) {
  while (e && (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isTypeAssertionExpression(e)
               || (ts.isSatisfiesExpression && ts.isSatisfiesExpression(e)))) e = e.expression;
  return e;
}
/** What an assignment chain comes to: `a = b = function () {}` is the function. */
function assigned(e) {
  e = skipOuter(e);
  while (e && ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.EqualsToken) e = skipOuter(e.right);
  return e;
}
/** A const whose value is a function (in JavaScript a var or let too, through an assignment chain:
 * `var canonicalType = (exports.canonicalType = function canonicalType(value) {})`). */
function isFunctionConst(d) {
  if (!ts.isVariableDeclaration(d) || !ts.isIdentifier(d.name) || !d.initializer) return false;
  if (!(d.parent && ts.isVariableDeclarationList(d.parent))) return false;
  if (!javascript && !(d.parent.flags & ts.NodeFlags.Const)) return false;
  const init = javascript ? assigned(d.initializer) : skipOuter(d.initializer);
  return ts.isArrowFunction(init) || ts.isFunctionExpression(init);
}
function isFunctionValue(e) {
  e = skipOuter(e);
  return !!e && (ts.isArrowFunction(e) || ts.isFunctionExpression(e) || ts.isClassExpression(e));
}
/** JavaScript's other definitions, the name node they are named by: a function (or class) assigned to a
 * property (`Runner.prototype.run = function (fn) {}`, `app.init = function init() {}`, `exports.f = …`,
 * `req.get = req.header = function header() {}`: each property of the chain), and one written as an object
 * literal's property (`{ use: function (fn) {} }`). The compiler declares the assigned property's symbol at
 * the assignment's left side (or at the assignment). `module.exports = …` and `X.prototype = …` are no
 * definitions of their own. */
function assignedName(d) {
  if (!javascript || !d) return null;
  if (ts.isPropertyAssignment(d) && ts.isIdentifier(d.name) && isFunctionValue(d.initializer)) return d.name;
  let target = d;
  if (ts.isBinaryExpression(d)) target = d.left;
  if (!ts.isPropertyAccessExpression(target) || !ts.isIdentifier(target.name)) return null;
  const assignment = ts.isBinaryExpression(d) ? d : target.parent;
  if (!assignment || !ts.isBinaryExpression(assignment) || assignment.left !== target
      || assignment.operatorToken.kind !== ts.SyntaxKind.EqualsToken) return null;
  if (!isFunctionValue(assigned(assignment.right))) return null;
  const name = target.name.text;
  return name === "exports" || name === "prototype" ? null : target.name;
}
/** The name node a definition is named by. */
function nameOf(d) {
  return assignedName(d) || d.name;
}
/** Whether d is a declaration that defines something: function, method, class, interface, function const
 * (and in JavaScript a function assigned to a property, `assignedName`). */
function isDefinition(d) {
  if (ts.isFunctionDeclaration(d) || ts.isMethodDeclaration(d) || ts.isMethodSignature(d)
      || ts.isClassDeclaration(d) || ts.isClassExpression(d) || ts.isInterfaceDeclaration(d)) {
    return !!d.name && (ts.isIdentifier(d.name) || ts.isPrivateIdentifier(d.name));
  }
  return isFunctionConst(d) || assignedName(d) !== null;
}

const defs = new Map(); // symbol -> {name, path, line, uses, seen}
/** The definition a declaration's own symbol stands for, or null when it is none or not under ROOT. */
function definitionOf(sym) {
  if (!sym) return null;
  if (defs.has(sym)) return defs.get(sym);
  const first = (sym.declarations || []).find(isDefinition);
  if (!first) return null;
  const sf = first.getSourceFile();
  const p = rel(sf);
  if (p === null || sf.isDeclarationFile) return null;
  const name = nameOf(first);
  const d = { name: name.text, path: p, line: lineOf(sf, name.getStart(sf)), uses: [], seen: new Set() };
  defs.set(sym, d);
  return d;
}
/** The definitions a (resolved) symbol stands for: one, or one per member of a union's synthetic property. */
function definitions(sym, depth = 0) {
  if (!sym) return [];
  if (sym.flags & ts.SymbolFlags.Alias) {
    try { sym = checker.getAliasedSymbol(sym); } catch (e) { return []; }
  }
  const out = new Set();
  for (const d of sym.declarations || []) {
    // d.symbol: the declaring symbol (a union type's property is a transient symbol over several of them)
    if (isDefinition(d)) { const def = definitionOf(d.symbol || sym); if (def) out.add(def); }
    else if (ts.isConstructorDeclaration(d) && d.parent) { const def = definitionOf(d.parent.symbol); if (def) out.add(def); }
    else if (javascript && ts.isShorthandPropertyAssignment(d) && depth < 4) {
      // JavaScript's module objects (`module.exports = { mask, toBuffer }`, axios' `export default { isArray, … }`):
      // `utils.isArray(x)` binds to the object's property, which is the function, as the compiler's own
      // find-all-references counts it
      for (const def of definitions(checker.getShorthandAssignmentValueSymbol(d), depth + 1)) out.add(def);
    } else if (javascript && depth < 4 && ts.isVariableDeclaration(d) && ts.isIdentifier(d.name) && d.initializer) {
      // a name taken from a module under its own name (`var createUnsupportedError = errors.createUnsupportedError`),
      // as an import binds it: its calls are the function's
      const init = skipOuter(d.initializer);
      const named = ts.isPropertyAccessExpression(init) ? init.name : ts.isIdentifier(init) ? init : null;
      if (named && named.text === d.name.text) {
        for (const def of definitions(checker.getSymbolAtLocation(named), depth + 1)) out.add(def);
      }
    }
  }
  return [...out];
}
/** Whether e is `require("…")`, or a member of one (`require("./x").y`). */
function isRequire(e) {
  e = skipOuter(e);
  while (e && ts.isPropertyAccessExpression(e)) e = e.expression;
  return !!e && ts.isCallExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === "require";
}

let identifiers = 0, unresolved = 0;
function scan(sf) {
  const p = rel(sf);
  const visit = (node) => {
    if (ts.isImportDeclaration(node) || ts.isImportEqualsDeclaration(node) || ts.isExportDeclaration(node)) return;
    // JavaScript's import: `const { mask: applyMask } = require("./buffer-util")` is no use, as an import is none
    if (javascript && ts.isVariableDeclaration(node) && node.initializer && isRequire(node.initializer)) return;
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) {
      identifiers++;
      let sym;
      const parent = node.parent;
      if (parent && ts.isShorthandPropertyAssignment(parent) && parent.name === node) {
        sym = checker.getShorthandAssignmentValueSymbol(parent);
      } else {
        sym = checker.getSymbolAtLocation(node);
        // a declaration's own name is no use (an overload's, an implementing method's included)
        if (sym && (sym.declarations || []).some((d) => nameOf(d) === node)) sym = "own";
      }
      if (sym === undefined) unresolved++;
      else if (sym !== "own") {
        const text = node.text;
        const ln = lineOf(sf, node.getStart(sf));
        for (const d of definitions(sym)) {
          if (d.name !== text) continue;
          const key = `${p}:${ln}`;
          if (!d.seen.has(key)) { d.seen.add(key); d.uses.push([p, ln]); }
        }
      }
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}

/** Every definition declared under ROOT, used or not. */
function declare(sf) {
  const visit = (node) => {
    if (isDefinition(node)) definitionOf(node.symbol || checker.getSymbolAtLocation(nameOf(node)));
    ts.forEachChild(node, visit);
  };
  visit(sf);
}

const json = (s) => JSON.stringify(s);
const pairs = (l) => "[" + l.map(([p, n]) => `[${json(p)}, ${n}]`).join(", ") + "]";
const byPathLine = (a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]);
const byDef = (a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1
  : a.line !== b.line ? a.line - b.line : a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const out = [];

if (mode === "uses") {
  sources.forEach(declare);
  sources.forEach(scan);
  for (const d of [...defs.values()].sort(byDef)) {
    d.uses.sort(byPathLine);
    out.push(`{"name": ${json(d.name)}, "path": ${json(d.path)}, "line": ${d.line}, "uses": ${pairs(d.uses)}}`);
  }
} else if (mode === "implements") {
  const classes = []; // [symbol, def]
  const supers = new Map(); // symbol -> direct supertypes' symbols (heritage clauses of all its declarations)
  const resolve = (e) => {
    let s = checker.getSymbolAtLocation(e);
    if (s && s.flags & ts.SymbolFlags.Alias) { try { s = checker.getAliasedSymbol(s); } catch (x) { s = undefined; } }
    return s;
  };
  const directSupers = (sym) => {
    if (supers.has(sym)) return supers.get(sym);
    const found = new Set();
    for (const d of sym.declarations || []) {
      for (const h of d.heritageClauses || []) {
        for (const t of h.types) { const s = resolve(t.expression); if (s) found.add(s); }
      }
    }
    supers.set(sym, found);
    return found;
  };
  const visitDecl = (node) => {
    if ((ts.isClassDeclaration(node) || ts.isClassExpression(node)) && node.name) {
      const d = definitionOf(node.symbol);
      if (d && !classes.some(([s]) => s === node.symbol)) classes.push([node.symbol, d]);
    }
    ts.forEachChild(node, visitDecl);
  };
  sources.forEach((sf) => visitDecl(sf));
  const targets = new Map(); // def -> implementers
  sources.forEach((sf) => {
    const visit = (node) => {
      const iface = ts.isInterfaceDeclaration(node);
      const abstractClass = ts.isClassDeclaration(node)
        && (ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Abstract) !== 0;
      if ((iface || abstractClass) && node.name) {
        const sym = node.symbol;
        // an interface merged with a class is that class: an interface only when no class declares it
        const isClass = (sym.flags & ts.SymbolFlags.Class) !== 0;
        if (!(iface && isClass)) {
          const d = definitionOf(sym);
          if (d && !targets.has(d)) {
            const found = [];
            for (const [c, cd] of classes) {
              if (c === sym) continue;
              const seen = new Set([c]);
              const stack = [...directSupers(c)];
              let hit = false;
              while (stack.length && !hit) {
                const s = stack.pop();
                if (seen.has(s)) continue;
                seen.add(s);
                if (s === sym) hit = true;
                else stack.push(...directSupers(s));
              }
              if (hit) found.push([cd.path, cd.line]);
            }
            found.sort(byPathLine);
            targets.set(d, found);
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  });
  for (const d of [...targets.keys()].sort(byDef)) {
    out.push(`{"name": ${json(d.name)}, "path": ${json(d.path)}, "line": ${d.line}, "implementers": ${pairs(targets.get(d))}}`);
  }
} else {
  const spans = [];
  sources.forEach((sf) => {
    const p = rel(sf);
    const visit = (node) => {
      let name = null, at = null, body = null, kind = null;
      if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isGetAccessorDeclaration(node)
           || ts.isSetAccessorDeclaration(node)) && node.name && node.body
          && (ts.isIdentifier(node.name) || ts.isPrivateIdentifier(node.name))) {
        name = node.name.text; at = node.name; body = node;
        kind = ts.isFunctionDeclaration(node) ? "function" : ts.isMethodDeclaration(node) ? "method" : "accessor";
      } else if (ts.isConstructorDeclaration(node) && node.body) {
        const kw = node.getChildren(sf).find((c) => c.kind === ts.SyntaxKind.ConstructorKeyword);
        name = "constructor"; at = kw || node; body = node; kind = "constructor";
      } else if (isFunctionConst(node)) {
        name = node.name.text; at = node.name; body = node; kind = "function";
      } else if (ts.isBinaryExpression(node) || ts.isPropertyAssignment(node)) {
        const named = assignedName(ts.isBinaryExpression(node) ? node.left : node);
        if (named) { name = named.text; at = named; body = node; kind = "function"; }
      } else if (javascript && ts.isFunctionExpression(node) && node.name) {
        // a named function expression encloses what it calls (`wrapper = function onMessage(data) {}`,
        // `new Promise(function dispatchXhrRequest(resolve, reject) {})`); where a property or a variable is
        // assigned it, that one's span (above) begins on the same line or before
        name = node.name.text; at = node.name; body = node; kind = "function";
      }
      if (name !== null) {
        spans.push({ name, path: p, line: lineOf(sf, at.getStart(sf)), end: lineOf(sf, body.getEnd()), kind });
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  });
  spans.sort(byDef);
  for (const s of spans) {
    out.push(`{"name": ${json(s.name)}, "path": ${json(s.path)}, "line": ${s.line}, "end": ${s.end}, "kind": ${json(s.kind)}}`);
  }
}
process.stdout.write(out.map((l) => l + "\n").join(""));

const diags = ts.getPreEmitDiagnostics(program).filter((d) => d.category === ts.DiagnosticCategory.Error);
const missing = diags.filter((d) => [2304, 2305, 2307, 2503, 2580, 2591, 2592].includes(d.code));
process.stderr.write(`ts_uses ${root} (TypeScript ${ts.version}): ${sources.length} files, ${diags.length} errors `
  + `(${missing.length} cannot-find name/module), ${unresolved} of ${identifiers} identifiers without a symbol, `
  + `${defs.size} definitions\n`);
for (const d of diags.slice(0, 5)) {
  const where = d.file ? `${rel(d.file) || d.file.fileName}:${lineOf(d.file, d.start)}: ` : "";
  process.stderr.write(`  ${where}TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, " ")}\n`);
}
