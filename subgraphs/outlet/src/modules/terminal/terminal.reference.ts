import type { OutletContext } from '@subgraphs/outlet/src/context';
import type { TerminalType } from './terminal.type';

export const terminalReference = {
  Terminal: {
    __resolveReference(ref: { id: string }, ctx: OutletContext): Promise<TerminalType | null> {
      return ctx.services.terminal.findById(ref.id);
    },
  },
};
