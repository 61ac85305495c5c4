// Every block of code in docs/tool-systems.md runs and does what the text says (test/docs/README.md).
import { describeDocument } from '../support/document.js';

describeDocument('docs/tool-systems.md');
