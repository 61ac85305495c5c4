// Approval on the command line (TOOLS.md §6): ask on an interactive terminal, approve everything
// with --yes, and otherwise deny (an unattended run never performs an unapproved write).
import type { ApprovalHook } from '../tools/types.js';
import { questionOnTerminal } from './terminal-question.js';

export function cliApproval(options: { yes: boolean; interactive: boolean }): ApprovalHook | undefined {
  if (options.yes) return () => true;
  if (!options.interactive) {
    return () => {
      throw new Error('nuwa run only approves such calls when asked on a terminal, or with --yes');
    };
  }
  return async ({ toolName, confirm, args }) => {
    const shown = JSON.stringify(args);
    const answer = await questionOnTerminal(`Allow ${toolName} (${confirm}) with ${shown.length > 200 ? `${shown.slice(0, 197)}...` : shown}? [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  };
}
