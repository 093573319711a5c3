// Entry point of the Action bundle (action.yml `runs.main` → dist-action/index.js).
import { run } from './main.js';

await run();
