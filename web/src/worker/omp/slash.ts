/**
 * The host's split of a slash command (`AgentSession.prompt`): the name is the text between `/`
 * and the first space, `args` the raw rest after that space (not trimmed), or "".
 */
export function splitSlashCommand(line: string): { name: string; args: string } | null {
  if (!line.startsWith('/')) return null;
  const space = line.indexOf(' ');
  return space === -1 ? { name: line.slice(1), args: '' } : { name: line.slice(1, space), args: line.slice(space + 1) };
}
