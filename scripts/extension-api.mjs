// `node scripts/extension-api.mjs`: writes docs/extension-api.md, the page's host against every
// member of OMP 18.2.3's extension API. The members come from OMP's own type declarations, copied
// into fixtures/omp-api/ (read here with the TypeScript compiler's parser, no type checking: their
// imports of other OMP packages need not resolve); each member's status and sentence come from the
// one table the worker's host runs by, web/src/worker/omp/apiSupport.ts. A member the table does
// not name is "not yet", so a member a newer OMP adds shows up without anyone listing it.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DECLARATIONS = `${ROOT}fixtures/omp-api/`;
export const DOC_PATH = `${ROOT}docs/extension-api.md`;
const AGENT = 'pi-coding-agent/';

function parse(file) {
  const path = `${DECLARATIONS}${file}`;
  return ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
}

/** Every interface, class and type alias declared at the top of the given files, by name. */
function declarationsOf(files) {
  const found = new Map();
  for (const file of files) {
    for (const statement of parse(file).statements) {
      if (ts.isInterfaceDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) {
        if (statement.name && !found.has(statement.name.text)) found.set(statement.name.text, statement);
      }
    }
  }
  return found;
}

const nameOf = (member) => (member.name && (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name)) ? member.name.text : null);
const isMethod = (member) => ts.isMethodSignature(member) || ts.isMethodDeclaration(member) || (member.type && ts.isFunctionTypeNode(member.type));
/** The one-line doc comment OMP gives a member, if any. */
function summaryOf(member) {
  const doc = ts.getJSDocCommentsAndTags(member).find((node) => ts.isJSDoc(node));
  const text = typeof doc?.comment === 'string' ? doc.comment : (doc?.comment ?? []).map((part) => part.text).join('');
  return text.split('\n')[0].trim();
}

/** The members of an interface or class, its `extends` included (a base declared in the same files). */
function membersOf(decls, name) {
  const decl = decls.get(name);
  if (!decl || ts.isTypeAliasDeclaration(decl)) return [];
  const inherited = (decl.heritageClauses ?? []).flatMap((clause) => clause.types.flatMap((type) => membersOf(decls, type.expression.getText())));
  const own = decl.members.filter((member) => nameOf(member) !== null && !ts.isConstructorDeclaration(member));
  return [...inherited, ...own];
}

/** The property names of an event type: an interface, or a union of interfaces (ToolCallEvent). */
function eventFields(decls, name) {
  const decl = decls.get(name);
  if (decl && ts.isTypeAliasDeclaration(decl) && ts.isUnionTypeNode(decl.type)) {
    return [...new Set(decl.type.types.flatMap((type) => eventFields(decls, type.getText())))];
  }
  return [...new Set(membersOf(decls, name).map(nameOf))];
}

function row(key, kind, summary, extra = {}) {
  return { key, kind, summary, ...extra };
}

/** One row per member, in OMP's declaration order, each once (overloads and re-declarations merge). */
export function listMembers() {
  const decls = declarationsOf([
    `${AGENT}extensibility/extensions/types.d.ts`,
    `${AGENT}extensibility/shared-events.d.ts`,
    `${AGENT}session/session-manager.d.ts`,
    `${AGENT}utils/event-bus.d.ts`,
  ]);
  const rows = [];
  const seen = new Set();
  const add = (entry) => {
    if (seen.has(entry.key)) return;
    seen.add(entry.key);
    rows.push(entry);
  };
  const memberKey = (prefix, member) => `${prefix}.${nameOf(member)}${isMethod(member) ? '()' : ''}`;
  const plain = (prefix, member, group) => add(row(memberKey(prefix, member), isMethod(member) ? 'method' : 'property', summaryOf(member), { group, optional: Boolean(member.questionToken) }));

  for (const member of membersOf(decls, 'ExtensionAPI')) {
    const name = nameOf(member);
    if (name === 'on' && ts.isMethodSignature(member)) {
      const [eventParam, handlerParam] = member.parameters;
      const event = eventParam.type.literal.text;
      const [eventType, resultType] = handlerParam.type.typeArguments.map((type) => type.getText());
      add(row(`pi.on("${event}")`, 'event', '', { group: 'events', fields: eventFields(decls, eventType), result: resultType ?? null }));
    } else if (name === 'logger') {
      // `typeof logger` is pi-utils' logger module: one row per function it exports.
      for (const statement of parse('pi-utils/logger.d.ts').statements) {
        if (ts.isFunctionDeclaration(statement) && statement.name) add(row(`pi.logger.${statement.name.text}()`, 'method', summaryOf(statement), { group: 'pi' }));
      }
    } else if (name === 'events') {
      for (const busMember of membersOf(decls, 'EventBus')) plain('pi.events', busMember, 'pi');
    } else {
      plain('pi', member, 'pi');
    }
  }
  const contextMembers = membersOf(decls, 'ExtensionContext');
  for (const member of contextMembers) {
    const name = nameOf(member);
    if (name === 'ui') for (const uiMember of membersOf(decls, 'ExtensionUIContext')) plain('ctx.ui', uiMember, 'ui');
    else if (name === 'sessionManager') {
      // `Pick<SessionManager, "getCwd" | …>`: the picked names, each a SessionManager method.
      const pick = decls.get('ReadonlySessionManager').type.typeArguments[1];
      const sessionManager = new Map(membersOf(decls, 'SessionManager').map((m) => [nameOf(m), m]));
      for (const literal of pick.types) plain('ctx.sessionManager', sessionManager.get(literal.literal.text), 'sessionManager');
    } else plain('ctx', member, 'ctx');
  }
  const contextNames = new Set(contextMembers.map(nameOf));
  for (const member of membersOf(decls, 'ExtensionCommandContext')) {
    if (!contextNames.has(nameOf(member))) plain('commandCtx', member, 'commandCtx');
  }
  for (const member of membersOf(decls, 'ToolDefinition')) plain('tool', member, 'tool');
  const registerCommand = membersOf(decls, 'ExtensionAPI').find((member) => nameOf(member) === 'registerCommand');
  for (const member of registerCommand.parameters[1].type.members) plain('command', member, 'command');
  return rows;
}

const GROUPS = [
  ['pi', 'The `pi` object (the factory\'s argument)'],
  ['events', '`pi.on(event)`: the events, each with its event object\'s fields'],
  ['ctx', 'Each run\'s `ctx`'],
  ['ui', '`ctx.ui`'],
  ['sessionManager', '`ctx.sessionManager` (read-only)'],
  ['commandCtx', 'A command handler\'s `ctx` (beyond the others\')'],
  ['tool', '`pi.registerTool(definition)`: the definition\'s fields'],
  ['command', '`pi.registerCommand(name, options)`: the options'],
];

const cell = (text) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** The Markdown file: counts, then one table per group. `support` is the worker's table (apiSupport.ts). */
export function renderApiDoc(support, rows = listMembers()) {
  const statusOf = (key) => support[key]?.[0] ?? 'not yet';
  const counts = { works: 0, refused: 0, 'not yet': 0 };
  for (const entry of rows) counts[statusOf(entry.key)] += 1;
  const out = [
    '# The extension API in the page',
    '',
    '<!-- Generated by `node scripts/extension-api.mjs` from fixtures/omp-api/ (OMP 18.2.3\'s declarations) and web/src/worker/omp/apiSupport.ts. Do not edit by hand. -->',
    '',
    'Every member of OMP 18.2.3\'s extension API, as its own type declarations list them, and what the',
    'page\'s host (the worker) does with it. **works**: as in OMP, with what differs said; **refused**:',
    'calling it throws one sentence that says why a browser cannot; **not yet**: calling it throws a',
    'sentence that says the page does not have it yet. A subscription to an event the page does not',
    'fire yet, or a registration field it does not use, is kept, and its sentence is listed in the',
    'runtime\'s `notActedOn` (ExtensionRuntime) instead of being thrown, so the extension still loads.',
    '',
    `${rows.length} members: ${counts.works} works, ${counts.refused} refused, ${counts['not yet']} not yet.`,
  ];
  for (const [group, title] of GROUPS) {
    out.push('', `## ${title}`, '', '| member | status | in the page | OMP says |', '| --- | --- | --- | --- |');
    for (const entry of rows.filter((candidate) => candidate.group === group)) {
      const fields = entry.fields ? `fields: ${entry.fields.map((field) => `\`${field}\``).join(', ')}${entry.result ? `; a handler may return \`${entry.result}\`` : ''}` : entry.summary;
      const name = `\`${entry.key}\`${entry.optional ? ' (optional)' : ''}`;
      out.push(`| ${cell(name)} | ${statusOf(entry.key)} | ${cell(support[entry.key]?.[1] ?? '')} | ${cell(fields)} |`);
    }
  }
  return `${out.join('\n')}\n`;
}

async function main() {
  const { tsImport } = await import('tsx/esm/api');
  const { API_SUPPORT } = await tsImport('../web/src/worker/omp/apiSupport.ts', import.meta.url);
  writeFileSync(DOC_PATH, renderApiDoc(API_SUPPORT));
  console.log(`wrote ${DOC_PATH}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
