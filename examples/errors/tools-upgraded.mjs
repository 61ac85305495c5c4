// examples/tools.mjs after an upgrade: get_price gained an argument with a default, so the same
// CALL now means another call. A durable run recorded with the old tools no longer replays.
//   nuwa run examples/errors/replay-error.nuwa --tools examples/tools.mjs --durable --run-id upgrade --store .nuwa/examples
import tools from '../tools.mjs';

const upgraded = {
  ...tools.find((tool) => tool.name === 'get_price'),
  parameters: {
    type: 'object',
    properties: { symbol: { type: 'string' }, currency: { type: 'string', default: 'USD' } },
    required: ['symbol'],
  },
};

export default [upgraded, ...tools.filter((tool) => tool.name !== 'get_price')];
